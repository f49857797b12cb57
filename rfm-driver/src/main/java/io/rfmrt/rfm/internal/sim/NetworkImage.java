package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.SharedMemoryFile;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.internal.ProcStat;
import io.rfmrt.rfm.internal.SharedFiles;
import io.rfmrt.rfm.sim.HostBridge;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.*;

/**
 * An emulated network mapped into this process: its two files made or mapped with every check by
 * {@link NetworkFiles}, its {@link HostBridge} attached when it is bridged, and the operations that span several parts of
 * the control block, composed from the flyweights {@link LinkState}, {@link CardFlyweight}, {@link EventFifo} and
 * {@link InterruptLine}. Everything here works on shared memory and may race with other processes; each operation
 * says what it guarantees.
 */
public final class NetworkImage implements AutoCloseable
{
    /** Smallest memory image. */
    public static final long MIN_MEMORY_SIZE = 4096;
    /** Largest memory image (real cards have up to 256 MiB). */
    public static final long MAX_MEMORY_SIZE = 1L << 30;
    /** Default memory image, 16 MiB. */
    public static final long DEFAULT_MEMORY_SIZE = 16L << 20;

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
    private HostBridge bridge;

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
        final String problem = memorySizeProblem(size);
        if (problem != null)
        {
            throw new RfmException(RfmStatus.OUT_OF_RANGE, problem);
        }
    }

    /**
     * @param size bytes of memory.
     * @return null when a multiple of 4096 within 4 KiB..1 GiB, else the problem naming the value.
     */
    static String memorySizeProblem(final long size)
    {
        return size < MIN_MEMORY_SIZE || size > MAX_MEMORY_SIZE || (size & 4095) != 0 ?
            "memory size " + size + " is not a multiple of 4096 between 4K and 1G" : null;
    }

    /**
     * @param dir the network folder.
     * @return whether a network has been published there.
     */
    public static boolean exists(final Path dir)
    {
        return NetworkFiles.exists(dir);
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
     * @throws RfmException OUT_OF_RANGE naming a bad memory size; OS_ERROR in one line when it cannot be built (no
     *                      space: the folder, the bytes needed and the bytes free).
     */
    public static boolean createIfAbsent(final Path dir, final String name, final long memorySize)
    {
        checkMemorySize(memorySize);
        return NetworkFiles.createIfAbsent(dir, name, memorySize);
    }

    /**
     * Attach to an existing network, checking magic, layout version and sizes, and its bridge file when it is
     * bridged.
     *
     * @param dir  the network folder.
     * @param name the network name, for messages.
     * @return the mapped image.
     * @throws RfmException NOT_FOUND if there is no such network, BAD_LAYOUT on a mismatch.
     */
    public static NetworkImage attach(final Path dir, final String name)
    {
        final NetworkFiles.Mapped mapped = NetworkFiles.map(dir, name);
        try
        {
            // a bridged network's bridge file is checked before anything is handed out (a bad one unmaps both here)
            final NetworkImage image = new NetworkImage(dir, name, mapped.control(), mapped.memory());
            image.useBridge(HostBridge.attachIfPresent(dir, name, image.memory));
            return image;
        }
        catch (final RuntimeException ex)
        {
            SharedFiles.unmap(mapped.control());
            SharedFiles.unmap(mapped.memory());
            throw ex;
        }
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
        return linkState.up() && (bridge == null || bridge.leaseValid(System.nanoTime()));
    }

    // ---------------------------------------------------------------------------------------------- bridge

    /**
     * Use a host's bridge for this image (done by attach when the network is bridged; by the bridge once it made its
     * file); the image closes it.
     *
     * @param hostBridge the bridge, or null.
     */
    public void useBridge(final HostBridge hostBridge)
    {
        if (hostBridge != null && bridge == null)
        {
            bridge = hostBridge;
        }
    }

    /**
     * @return the host's bridge, whose outbound log node processes append to; null when the network is not bridged.
     */
    public HostBridge bridge()
    {
        return bridge;
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
        final String remote = isRemote(node) && bridge != null ? bridge.describeRemote(node, pid) : null;
        return remote != null ? remote : "live process " + pid;
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
     * card's own node id, data = the id of the overflowing type); a FIFO whose shared state is corrupt counts a
     * FIFO fault and raises BAD_DATA (the same source, data = the id of the faulty type). An event raised that way
     * raises nothing further when its own FIFO is full or corrupt: it is counted only. Self-disabling types clear
     * their enable bit as they fire. Bounded and allocation-free.
     *
     * @param node   receiving node.
     * @param type   event type.
     * @param source sending node.
     * @param data   data word.
     * @return true when queued.
     */
    public boolean deliver(final int node, final EventType type, final int source, final int data)
    {
        return deliver(node, type, source, data, true);
    }

    private boolean deliver(final int node, final EventType type, final int source, final int data,
        final boolean raiseFaults)
    {
        final CardFlyweight card = cards[node];
        if ((card.enabledMask() & type.mask()) == 0)
        {
            card.addCounter(RfmCounter.EVENTS_DISABLED.slot(type), 1);
            return false;
        }
        final int offered = fifos[node][type.id()].offer(source, data, System.nanoTime());
        if (offered != EventFifo.OFFERED)
        {
            final boolean full = offered == EventFifo.FULL;
            card.addCounter(full ? RfmCounter.FIFO_OVERFLOWS.slot(type) : RfmCounter.FIFO_FAULTS.slot(type), 1);
            final EventType fault = full ? EventType.RXFIFO_FULL : EventType.BAD_DATA;
            if (raiseFaults && type != fault)
            {
                deliver(node, fault, node, type.id(), false);
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
        if (bridge != null)
        {
            bridge.close();
            bridge = null;
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
