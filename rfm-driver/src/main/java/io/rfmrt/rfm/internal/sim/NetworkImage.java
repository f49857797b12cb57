package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.SharedMemoryFile;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.internal.LibC;
import io.rfmrt.rfm.internal.ProcStat;
import io.rfmrt.rfm.internal.SharedFiles;
import io.rfmrt.rfm.internal.bridge.BridgeFile;
import io.rfmrt.rfm.internal.bridge.OutboundLog;
import com.sun.jna.Native;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.*;

/**
 * An emulated network mapped into this process: the lifecycle of its two files (create under a lock, publish,
 * attach with checks, unmap) and the operations that span several parts of the control block, composed from the
 * flyweights {@link LinkState}, {@link CardFlyweight}, {@link EventFifo} and {@link InterruptLine}. Everything here
 * works on shared memory and may race with other processes; each operation says what it guarantees.
 */
public final class NetworkImage implements AutoCloseable
{
    /** File name of the memory image in the network folder. */
    public static final String MEMORY_FILE = "memory";
    /** File name of the lock that creators of the network take, in the network folder. */
    public static final String CREATE_LOCK_FILE = ".create.lock";
    /** File name of the control block in the network folder. */
    public static final String CONTROL_FILE = "control";
    /** Smallest memory image. */
    public static final long MIN_MEMORY_SIZE = 4096;
    /** Largest memory image (real cards have up to 256 MiB). */
    public static final long MAX_MEMORY_SIZE = 1L << 30;
    /** Default memory image, 16 MiB. */
    public static final long DEFAULT_MEMORY_SIZE = 16L << 20;

    private static final long CREATION_WAIT_NS = TimeUnit.SECONDS.toNanos(5);

    private final Path dir;
    private final String name;
    private final MappedByteBuffer controlMap;
    private final MappedByteBuffer memoryMap;
    private final UnsafeBuffer control;
    private final UnsafeBuffer memory;
    private final Object controlKey;
    private final LinkState linkState = new LinkState();
    private final CardFlyweight[] cards = new CardFlyweight[CARD_COUNT];
    private final EventFifo[][] fifos = new EventFifo[CARD_COUNT][EventType.ID_LIMIT];
    private final InterruptLine[][] lines = new InterruptLine[CARD_COUNT][EventType.ID_LIMIT];
    private BridgeFile bridgeFile;
    private OutboundLog outbound;

    private NetworkImage(final Path dir, final String name, final MappedByteBuffer controlMap,
        final MappedByteBuffer memoryMap)
    {
        this.dir = dir;
        this.name = name;
        this.controlMap = controlMap;
        this.memoryMap = memoryMap;
        this.control = new UnsafeBuffer(controlMap);
        this.memory = new UnsafeBuffer(memoryMap);
        this.controlKey = SharedMemoryFile.fileKey(dir.resolve(CONTROL_FILE));
        linkState.wrap(control);
        for (int node = 0; node < CARD_COUNT; node++)
        {
            cards[node] = new CardFlyweight().wrap(control, node);
            for (final EventType type : EventType.values())
            {
                fifos[node][type.id()] = new EventFifo().wrap(control, fifoOffset(node, type));
                lines[node][type.id()] = new InterruptLine().wrap(control, fifoOffset(node, type));
            }
        }
    }

    /**
     * Check a memory size.
     *
     * @param size bytes.
     * @throws RfmException naming the value if not a multiple of 4096 within 4 KiB..1 GiB.
     */
    public static void checkMemorySize(final long size)
    {
        if (size < MIN_MEMORY_SIZE || size > MAX_MEMORY_SIZE || (size & 4095) != 0)
        {
            throw new RfmException(RfmStatus.OUT_OF_RANGE, "memory size " + size +
                " is not a multiple of 4096 between 4K and 1G");
        }
    }

    /**
     * @param dir the network folder.
     * @return whether a network has been published there.
     */
    public static boolean exists(final Path dir)
    {
        return Files.isRegularFile(dir.resolve(CONTROL_FILE), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Create the network, or attach to it if another process made it first.
     *
     * @param dir        the network folder; it exists and has been checked (see {@code SimNetwork.checkedDir}).
     * @param name       the network name, for messages.
     * @param memorySize bytes of memory for a new network.
     * @return the mapped image.
     */
    public static NetworkImage createOrAttach(final Path dir, final String name, final long memorySize)
    {
        if (!exists(dir))
        {
            checkMemorySize(memorySize);
            createIfAbsent(dir, name, memorySize);
        }
        return attach(dir, name);
    }

    /**
     * Create the network unless it exists: one process of any number racing here builds it, under a file lock. On a
     * refusal (no space, a file in the way) nothing this call made is left: no temporary file, no memory image, no
     * lock file.
     *
     * @param dir        the network folder; it exists and has been checked (see {@code SimNetwork.checkedDir}).
     * @param name       the network name, for messages.
     * @param memorySize bytes of memory.
     * @return true when this call built it, false when it existed (made by another process, perhaps just now).
     * @throws RfmException OS_ERROR in one line when it cannot be built (no space: the folder, the bytes needed and
     *                      the bytes free).
     */
    public static boolean createIfAbsent(final Path dir, final String name, final long memorySize)
    {
        checkMemorySize(memorySize);
        final Path lockFile = dir.resolve(CREATE_LOCK_FILE);
        while (true)
        {
            final int fd = openLock(lockFile, name);
            try
            {
                while (LibC.flock(fd, LibC.LOCK_EX) != 0)
                {
                    if (Native.getLastError() != LibC.EINTR)
                    {
                        throw new RfmException(RfmStatus.OS_ERROR, "cannot lock " + lockFile + " (errno " +
                            Native.getLastError() + ")");
                    }
                }
                if (exists(dir))
                {
                    return false;
                }
                if (lockedPath(fd).endsWith(" (deleted)"))
                {
                    // a creator refused before us removed the file we locked: lock the one at the name now
                    continue;
                }
                boolean built = false;
                try
                {
                    build(dir, name, memorySize);
                    built = true;
                    return true;
                }
                catch (final IOException ex)
                {
                    SharedFiles.checkSpace(dir, memorySize + FILE_SIZE, "network '" + name + "'");
                    throw new RfmException(RfmStatus.OS_ERROR, "cannot create network '" + name + "' in " + dir +
                        ": " + SharedFiles.describe(ex), ex);
                }
                finally
                {
                    if (!built)
                    {
                        // removed while locked: a creator waiting on it sees that and locks the next one
                        SharedFiles.deleteQuietly(lockFile);
                    }
                }
            }
            finally
            {
                LibC.close(fd);
            }
        }
    }

    private static int openLock(final Path lockFile, final String name)
    {
        if (LibC.loadFailure() != null)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot create network '" + name + "': libc is not " +
                "available to lock " + lockFile + ": " + LibC.loadFailure());
        }
        while (true)
        {
            try
            {
                Files.createFile(lockFile);
                Files.setPosixFilePermissions(lockFile, SharedFiles.FILE_PERMISSIONS);
            }
            catch (final FileAlreadyExistsException ignore)
            {
                // another creator's: lock it
            }
            catch (final IOException ex)
            {
                throw new RfmException(RfmStatus.OS_ERROR, "cannot create " + lockFile + ": " +
                    SharedFiles.describe(ex), ex);
            }
            final int fd = LibC.open(lockFile.toString(), LibC.O_RDWR | LibC.O_NOFOLLOW | LibC.O_CLOEXEC);
            if (fd >= 0)
            {
                return fd;
            }
            if (Native.getLastError() != 2)
            {
                throw new RfmException(RfmStatus.OS_ERROR, "cannot open " + lockFile + " (errno " +
                    Native.getLastError() + "; a symbolic link is refused)");
            }
            // ENOENT: removed by a refused creator between the two calls
        }
    }

    /** The path of the file a descriptor is open on, with " (deleted)" after it once it was removed. */
    private static String lockedPath(final int fd)
    {
        try
        {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    private static void build(final Path dir, final String name, final long memorySize) throws IOException
    {
        final Path memoryFile = dir.resolve(MEMORY_FILE);
        final Path controlFile = dir.resolve(CONTROL_FILE);
        if (Files.exists(controlFile, LinkOption.NOFOLLOW_LINKS))
        {
            // not a regular file (else the network would exist): a symbolic link or a folder in the way
            throw new RfmException(RfmStatus.OS_ERROR, "cannot create network '" + name + "': " + controlFile +
                (Files.isSymbolicLink(controlFile) ? " is a symbolic link" : " is not a regular file") +
                "; remove it");
        }
        SharedFiles.checkSpace(dir, memorySize + FILE_SIZE, String.format(
            "network '%s' (memory %,d bytes, control block %,d)", name, memorySize, FILE_SIZE));

        // memory first: a published control block always has its memory beside it
        final Path memoryTmp = SharedFiles.createTemporary(memoryFile, memorySize);
        Files.move(memoryTmp, memoryFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        boolean published = false;
        try
        {
            final Path controlTmp = SharedFiles.createTemporary(controlFile, FILE_SIZE);
            try
            {
                final MappedByteBuffer map = SharedFiles.map(controlTmp, "control block");
                try
                {
                    final UnsafeBuffer header = new UnsafeBuffer(map);
                    header.putInt(CARD_COUNT_OFFSET, CARD_COUNT);
                    header.putLong(MEMORY_SIZE_OFFSET, memorySize);
                    header.putInt(CARD_SIZE_OFFSET, CARD_SIZE);
                    header.putInt(FIFO_CAPACITY_OFFSET, EventType.FIFO_CAPACITY);
                    header.putLong(CREATED_OFFSET, System.currentTimeMillis());
                    LinkState.init(header);
                    final CardFlyweight card = new CardFlyweight();
                    for (int node = 0; node < CARD_COUNT; node++)
                    {
                        card.wrap(header, node).init();
                    }
                    header.putIntRelease(VERSION_OFFSET, LAYOUT_VERSION);
                    header.putLongRelease(MAGIC_OFFSET, MAGIC);
                }
                finally
                {
                    SharedFiles.unmap(map);
                }
            }
            catch (final RuntimeException | Error ex)
            {
                SharedFiles.deleteQuietly(controlTmp);
                throw ex;
            }
            published = SharedFiles.publish(controlTmp, controlFile);
            if (!published)
            {
                throw new RfmException(RfmStatus.OS_ERROR, "cannot create network '" + name + "': " + controlFile +
                    " appeared while it was being made; remove it");
            }
        }
        finally
        {
            if (!published)
            {
                SharedFiles.deleteQuietly(memoryFile);
            }
        }
    }

    /**
     * Attach to an existing network, checking magic, layout version and sizes.
     *
     * @param dir  the network folder.
     * @param name the network name, for messages.
     * @return the mapped image.
     * @throws RfmException NOT_FOUND if there is no such network, BAD_LAYOUT on a mismatch.
     */
    public static NetworkImage attach(final Path dir, final String name)
    {
        final Path controlFile = dir.resolve(CONTROL_FILE);
        if (!Files.isRegularFile(controlFile) && !Files.isSymbolicLink(controlFile))
        {
            throw new RfmException(RfmStatus.NOT_FOUND, "network '" + name + "' does not exist (no " + controlFile +
                ")");
        }
        final MappedByteBuffer controlMap = SharedFiles.map(controlFile, "control block of network '" + name + "'");
        MappedByteBuffer memoryMap = null;
        try
        {
            final UnsafeBuffer header = new UnsafeBuffer(controlMap);
            if (header.capacity() < HEADER_SIZE)
            {
                throw badLayout(name, "control block is " + header.capacity() + " bytes");
            }
            final long deadline = System.nanoTime() + CREATION_WAIT_NS;
            long magic;
            while ((magic = header.getLongAcquire(MAGIC_OFFSET)) == 0 && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            if (magic != MAGIC)
            {
                throw badLayout(name, String.format("magic 0x%016x, expected 0x%016x", magic, MAGIC));
            }
            final int version = header.getIntAcquire(VERSION_OFFSET);
            if (version != LAYOUT_VERSION)
            {
                throw new RfmException(RfmStatus.BAD_LAYOUT, "network '" + name + "': control block " + controlFile +
                    " has layout version " + version + (version == LAYOUT_VERSION_BY_POSITION ?
                    " (counters and FIFOs placed by event type position)" : "") + "; this build reads version " +
                    LAYOUT_VERSION + " only: destroy the network and create it again");
            }
            if (header.getInt(CARD_SIZE_OFFSET) != CARD_SIZE || header.getInt(CARD_COUNT_OFFSET) != CARD_COUNT ||
                header.capacity() != FILE_SIZE)
            {
                throw badLayout(name, "card geometry differs from this build's");
            }
            final long memorySize = header.getLong(MEMORY_SIZE_OFFSET);
            memoryMap = SharedFiles.map(dir.resolve(MEMORY_FILE), "memory image of network '" + name + "'");
            if (memoryMap.capacity() != memorySize)
            {
                throw badLayout(name, "memory image is " + memoryMap.capacity() + " bytes, control block says " +
                    memorySize);
            }
            // a bridged network's bridge file is checked before anything is handed out (a bad one unmaps both here)
            final BridgeFile bridge = BridgeFile.attachIfPresent(dir, name, memorySize);
            final NetworkImage image = new NetworkImage(dir, name, controlMap, memoryMap);
            image.useBridge(bridge);
            return image;
        }
        catch (final RuntimeException ex)
        {
            SharedFiles.unmap(controlMap);
            SharedFiles.unmap(memoryMap);
            throw ex;
        }
    }

    private static RfmException badLayout(final String name, final String detail)
    {
        return new RfmException(RfmStatus.BAD_LAYOUT, "network '" + name +
            "' has a foreign or corrupt control block: " + detail);
    }

    /**
     * @return the network folder.
     */
    public Path dir()
    {
        return dir;
    }

    /**
     * @return the network name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return a buffer over the whole memory image.
     */
    public UnsafeBuffer memory()
    {
        return memory;
    }

    /**
     * @return a buffer over the whole control block.
     */
    public UnsafeBuffer control()
    {
        return control;
    }

    /**
     * @return bytes of memory.
     */
    public long memorySize()
    {
        return control.getLong(MEMORY_SIZE_OFFSET);
    }

    /**
     * @return creation time, epoch milliseconds.
     */
    public long createdMillis()
    {
        return control.getLong(CREATED_OFFSET);
    }

    // ---------------------------------------------------------------------------------------------- link

    /**
     * @return the ring's state in the control block.
     */
    public LinkState linkState()
    {
        return linkState;
    }

    /**
     * @return whether the ring is closed: the link word is up and, on a bridged network, the host's bridge renews
     * its lease (a bridge that died leaves the host cut off, as an open ring).
     */
    public boolean linkUp()
    {
        return linkState.up() && (bridgeFile == null || bridgeFile.leaseValid(System.nanoTime()));
    }

    // ---------------------------------------------------------------------------------------------- bridge

    /**
     * Map a bridge file for this image (done by attach when the network is bridged; by the bridge once it made it).
     *
     * @param file the bridge file, or null.
     */
    public void useBridge(final BridgeFile file)
    {
        if (file != null && bridgeFile == null)
        {
            bridgeFile = file;
            outbound = new OutboundLog(file, memory);
        }
    }

    /**
     * @return the host's bridge file, or null when the network is not bridged.
     */
    public BridgeFile bridgeFile()
    {
        return bridgeFile;
    }

    /**
     * @return the outbound log node processes append to, or null when the network is not bridged.
     */
    public OutboundLog outbound()
    {
        return outbound;
    }

    /**
     * @param node node id.
     * @return whether the card stands in for another host's node.
     */
    public boolean isRemote(final int node)
    {
        return (cards[node].flags() & FLAG_REMOTE) != 0;
    }

    /**
     * @param node node id.
     * @return who holds the card, for a message: a live process of this host, or a node on another host.
     */
    public String describeHolder(final int node)
    {
        final long pid = cards[node].ownerPid();
        if (isRemote(node) && bridgeFile != null && bridgeFile.remoteHost(node) != 0)
        {
            final int host = bridgeFile.remoteHost(node);
            final int peer = bridgeFile.peerIndex(host);
            final String hostName = peer < 0 ? "" : bridgeFile.peerName(peer);
            final long ago = Math.max(0, System.currentTimeMillis() - bridgeFile.remoteLastHeard(node));
            return "process " + bridgeFile.remotePid(node) + " on host " +
                (hostName.isEmpty() ? "id " + host : "'" + hostName + "' (host id " + host + ")") +
                ", as this host's bridge (pid " + pid + ") last heard " + ago + " ms ago";
        }
        return "live process " + pid;
    }

    /**
     * Bridge only: hold a free card (or one a dead process left) as the stand-in for another host's node.
     *
     * @param node node id.
     * @return true when held now (or already held by this process as a stand-in); false when a live holder has it.
     */
    public boolean claimRemote(final int node)
    {
        final long self = ProcStat.selfPid();
        final CardFlyweight card = cards[node];
        while (true)
        {
            final long owner = card.ownerPid();
            if (owner == self)
            {
                return isRemote(node);
            }
            if (owner != 0 && ownerAlive(node))
            {
                return false;
            }
            if (card.casOwnerPid(owner, self))
            {
                card.init();
                card.ownerStart(ProcStat.startTime(self));
                card.flag(FLAG_REMOTE, true);
                card.bumpClaimGeneration();
                setPresent(node, true);
                return true;
            }
        }
    }

    /**
     * Bridge only: give a stand-in card back, or one a dead bridge left.
     *
     * @param node node id.
     */
    public void releaseRemote(final int node)
    {
        final CardFlyweight card = cards[node];
        final long owner = card.ownerPid();
        if (!isRemote(node) || owner != ProcStat.selfPid() && ownerAlive(node))
        {
            return;
        }
        setPresent(node, false);
        card.flag(FLAG_REMOTE, false);
        card.disableAll();
        card.bumpClaimGeneration();
        card.casOwnerPid(owner, 0);
    }

    /**
     * Open or close the ring. Opening it counts a sync loss on every present card and raises SYNC_LOSS there
     * (source node = the receiving card's own node id, data 0).
     *
     * @param up the new state.
     * @return whether this call changed the state.
     */
    public boolean link(final boolean up)
    {
        if (!linkState.set(up))
        {
            return false;
        }
        if (!up)
        {
            for (int node = nextPresent(0); node >= 0; node = nextPresent(node + 1))
            {
                if (isRemote(node))
                {
                    continue;
                }
                cards[node].addCounter(RfmCounter.SYNC_LOSSES.id(), 1);
                deliver(node, EventType.SYNC_LOSS, node, 0);
            }
        }
        return true;
    }

    /**
     * @return times the ring has gone down.
     */
    public long linkDowns()
    {
        return linkState.downs();
    }

    /**
     * Network reset: zero the memory and every card's counters, close the ring, count the reset, and raise RESET
     * on every present card (source node = the receiving card's own node id, data 0). Node claims, enable masks
     * and queued events stay.
     */
    public void reset()
    {
        memory.setMemory(0, memory.capacity(), (byte)0);
        for (final CardFlyweight card : cards)
        {
            card.clearCounters();
        }
        link(true);
        linkState.countReset();
        for (int node = nextPresent(0); node >= 0; node = nextPresent(node + 1))
        {
            if (!isRemote(node))
            {
                deliver(node, EventType.RESET, node, 0);
            }
        }
    }

    /**
     * @return network resets done.
     */
    public long resets()
    {
        return linkState.resets();
    }

    // ---------------------------------------------------------------------------------------------- cards

    /**
     * @param node node id.
     * @return the flyweight over that card (shared: it holds no state but its position).
     */
    public CardFlyweight card(final int node)
    {
        return cards[node];
    }

    /**
     * @param node node id.
     * @return whether a process holds the card (dead or alive).
     */
    public boolean isPresent(final int node)
    {
        return (control.getLongVolatile(PRESENT_OFFSET + (node >>> 6) * 8) & (1L << (node & 63))) != 0;
    }

    /**
     * @param from first node id to look at.
     * @return the lowest present node id at or above {@code from}, or -1.
     */
    public int nextPresent(final int from)
    {
        for (int word = from >>> 6; word < CARD_COUNT / 64; word++)
        {
            long bits = control.getLongVolatile(PRESENT_OFFSET + word * 8);
            if (word == from >>> 6)
            {
                bits &= -1L << (from & 63);
            }
            if (bits != 0)
            {
                return word * 64 + Long.numberOfTrailingZeros(bits);
            }
        }
        return -1;
    }

    private void setPresent(final int node, final boolean present)
    {
        final int offset = PRESENT_OFFSET + (node >>> 6) * 8;
        final long bit = 1L << (node & 63);
        long was;
        do
        {
            was = control.getLongVolatile(offset);
        }
        while (!control.compareAndSetLong(offset, was, present ? was | bit : was & ~bit));
    }

    /**
     * @param node node id.
     * @return whether the card's holder still runs.
     */
    public boolean ownerAlive(final int node)
    {
        final CardFlyweight card = cards[node];
        final long pid = card.ownerPid();
        return pid != 0 && ProcStat.isAlive(pid, card.ownerStart());
    }

    /**
     * Claim a node's card for this process. A claim left by a dead process is taken over; a claim by a live process
     * is refused.
     *
     * @param node node id.
     * @return SUCCESS, or NODE_IN_USE.
     */
    public RfmStatus claim(final int node)
    {
        final long self = ProcStat.selfPid();
        final CardFlyweight card = cards[node];
        while (true)
        {
            final long owner = card.ownerPid();
            if (owner == self)
            {
                return RfmStatus.NODE_IN_USE;
            }
            if (owner != 0 && ownerAlive(node))
            {
                return RfmStatus.NODE_IN_USE;
            }
            if (card.casOwnerPid(owner, self))
            {
                card.init();
                card.ownerStart(ProcStat.startTime(self));
                card.bumpClaimGeneration();
                setPresent(node, true);
                return RfmStatus.SUCCESS;
            }
        }
    }

    /**
     * Give a card back; only the holder does this.
     *
     * @param node node id.
     */
    public void release(final int node)
    {
        final CardFlyweight card = cards[node];
        setPresent(node, false);
        card.disableAll();
        card.bumpClaimGeneration();
        card.casOwnerPid(ProcStat.selfPid(), 0);
    }

    // ---------------------------------------------------------------------------------------------- events

    /**
     * @param node node id.
     * @param type event type.
     * @return the flyweight over that FIFO (shared: it holds no state but its position).
     */
    public EventFifo fifo(final int node, final EventType type)
    {
        return fifos[node][type.id()];
    }

    /**
     * @param node node id.
     * @param type event type.
     * @return the flyweight over that FIFO's interrupt line (shared).
     */
    public InterruptLine interruptLine(final int node, final EventType type)
    {
        return lines[node][type.id()];
    }

    /**
     * Put an event in a card's FIFO and raise the type's interrupt line, as the card does on arrival. Disabled types
     * are dropped and counted; a full FIFO counts an overflow and raises RXFIFO_FULL (source node = the receiving
     * card's own node id, data = the id of the overflowing type). Self-disabling types clear their enable bit as
     * they fire.
     *
     * @param node   receiving node.
     * @param type   event type.
     * @param source sending node.
     * @param data   data word.
     * @return true when queued.
     */
    public boolean deliver(final int node, final EventType type, final int source, final int data)
    {
        final CardFlyweight card = cards[node];
        if ((card.enabledMask() & type.mask()) == 0)
        {
            card.addCounter(RfmCounter.EVENTS_DISABLED.slot(type), 1);
            return false;
        }
        if (!fifos[node][type.id()].offer(source, data, System.nanoTime()))
        {
            card.addCounter(RfmCounter.FIFO_OVERFLOWS.slot(type), 1);
            if (type != EventType.RXFIFO_FULL)
            {
                deliver(node, EventType.RXFIFO_FULL, node, type.id());
            }
            return false;
        }
        card.addCounter(RfmCounter.EVENTS_RECEIVED.slot(type), 1);
        if (type.selfDisabling())
        {
            card.enable(type, false);
        }
        raise(node, type);
        return true;
    }

    /**
     * Raise a type's interrupt line: bump the futex word and wake the waiter if one sleeps on it (counted as
     * INTERRUPTS_RAISED on the receiving card).
     *
     * @param node node id.
     * @param type event type.
     */
    public void raise(final int node, final EventType type)
    {
        if (lines[node][type.id()].raise())
        {
            cards[node].addCounter(RfmCounter.INTERRUPTS_RAISED.id(), 1);
        }
    }

    /**
     * Unmap both files.
     */
    @Override
    public void close()
    {
        if (bridgeFile != null)
        {
            bridgeFile.close();
            bridgeFile = null;
            outbound = null;
        }
        SharedFiles.unmap(controlMap);
        SharedFiles.unmap(memoryMap);
    }

    /**
     * Whether the control block was cut short under this image (truncated in place by something outside rfmrt). A
     * write to a page past the file's end faults: in a plain access the JVM turns that into an {@link InternalError},
     * but an atomic update from interpreted code crashes the JVM, so a holder checks this before the atomic updates
     * of its shutdown (the memory image is not written there). A file replaced or removed is not cut short: the
     * mapping still holds the old file's pages. Off the hot path (one file-status read).
     *
     * @return null when the control block still covers its mapping, else one line naming the file and its sizes.
     */
    public String controlTruncation()
    {
        return truncation(CONTROL_FILE, controlKey, controlMap.capacity());
    }

    private String truncation(final String file, final Object key, final long mapped)
    {
        final Path path = dir.resolve(file);
        final long size = SharedMemoryFile.cutSize(path, key, mapped);
        return size < 0 ? null : "network '" + name + "': " + path + " was cut to " + size + " of its " + mapped +
            " bytes under this node";
    }
}
