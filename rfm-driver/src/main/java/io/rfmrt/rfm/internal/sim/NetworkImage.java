package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmConfig;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.internal.Futex;
import io.rfmrt.rfm.internal.ProcStat;
import io.rfmrt.rfm.internal.SharedFiles;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.*;

/**
 * An emulated network mapped into this process: the control block and the memory image. Everything here works on
 * shared memory and may race with other processes; each operation says what it guarantees.
 */
public final class NetworkImage implements AutoCloseable
{
    /** File name of the memory image in the network folder. */
    public static final String MEMORY_FILE = "memory";
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
    private final long controlAddress;

    private NetworkImage(final Path dir, final String name, final MappedByteBuffer controlMap,
        final MappedByteBuffer memoryMap)
    {
        this.dir = dir;
        this.name = name;
        this.controlMap = controlMap;
        this.memoryMap = memoryMap;
        this.control = new UnsafeBuffer(controlMap);
        this.memory = new UnsafeBuffer(memoryMap);
        this.controlAddress = control.addressOffset();
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
        if (exists(dir))
        {
            return attach(dir, name);
        }
        checkMemorySize(memorySize);
        // creators take a file lock so two first-comers do not both build the network
        final Path lockFile = dir.resolve(".create.lock");
        try (java.nio.channels.FileChannel lockChannel = java.nio.channels.FileChannel.open(lockFile,
            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);
            java.nio.channels.FileLock ignored = lockChannel.lock())
        {
            Files.setPosixFilePermissions(lockFile, SharedFiles.FILE_PERMISSIONS);
            if (!exists(dir))
            {
                build(dir, memorySize);
            }
        }
        catch (final IOException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot create network '" + name + "' in " + dir + ": " +
                ex.getMessage(), ex);
        }
        return attach(dir, name);
    }

    private static void build(final Path dir, final long memorySize) throws IOException
    {
        final Path memoryFile = dir.resolve(MEMORY_FILE);
        final Path controlFile = dir.resolve(CONTROL_FILE);

        // memory first: a published control block always has its memory beside it
        final Path memoryTmp = SharedFiles.createTemporary(memoryFile, memorySize);
        Files.move(memoryTmp, memoryFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        final Path controlTmp = SharedFiles.createTemporary(controlFile, FILE_SIZE);
        final MappedByteBuffer map = SharedFiles.map(controlTmp, "control block");
        try
        {
            final UnsafeBuffer header = new UnsafeBuffer(map);
            header.putInt(CARD_COUNT_OFFSET, CARD_COUNT);
            header.putLong(MEMORY_SIZE_OFFSET, memorySize);
            header.putInt(CARD_SIZE_OFFSET, CARD_SIZE);
            header.putInt(FIFO_CAPACITY_OFFSET, EventType.FIFO_CAPACITY);
            header.putLong(CREATED_OFFSET, System.currentTimeMillis());
            header.putInt(LINK_STATE_OFFSET, 1);
            for (int node = 0; node < CARD_COUNT; node++)
            {
                initCard(header, node);
            }
            header.putIntRelease(VERSION_OFFSET, LAYOUT_VERSION);
            header.putLongRelease(MAGIC_OFFSET, MAGIC);
        }
        finally
        {
            SharedFiles.unmap(map);
        }
        SharedFiles.publish(controlTmp, controlFile);
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
                throw badLayout(name, "layout version " + version + ", this build reads " + LAYOUT_VERSION);
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
            return new NetworkImage(dir, name, controlMap, memoryMap);
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

    private static void initCard(final UnsafeBuffer buffer, final int node)
    {
        final int card = cardOffset(node);
        buffer.putLong(card + CARD_OWNER_START_OFFSET, 0);
        buffer.putInt(card + CARD_FLAGS_OFFSET, 0);
        buffer.putInt(card + CARD_ENABLED_MASK_OFFSET, 0);
        buffer.putInt(card + CARD_BOARD_ID_OFFSET, RfmConfig.BOARD_ID_5565);
        buffer.setMemory(card + CARD_COUNTERS_OFFSET, RfmCounter.SLOT_COUNT * 8, (byte)0);
        for (final EventType type : EventType.values())
        {
            final int fifo = fifoOffset(node, type);
            buffer.putLong(fifo + FIFO_HEAD_OFFSET, 0);
            buffer.putLong(fifo + FIFO_TAIL_OFFSET, 0);
            buffer.putInt(fifo + FIFO_WAITERS_OFFSET, 0);
            for (int i = 0; i < FIFO_SLOTS; i++)
            {
                buffer.putLong(entryOffset(fifo, i) + ENTRY_SEQUENCE_OFFSET, i);
            }
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
     * @return whether the ring is closed.
     */
    public boolean linkUp()
    {
        return control.getIntVolatile(LINK_STATE_OFFSET) != 0;
    }

    /**
     * Open or close the ring. Opening it raises SYNC_LOSS on every attached card.
     *
     * @param up the new state.
     * @return whether the state changed.
     */
    public boolean link(final boolean up)
    {
        final int want = up ? 1 : 0;
        final int was = control.getIntVolatile(LINK_STATE_OFFSET);
        if (was == want || !control.compareAndSetInt(LINK_STATE_OFFSET, was, want))
        {
            return false;
        }
        control.getAndAddInt(LINK_GENERATION_OFFSET, 1);
        if (!up)
        {
            control.getAndAddLong(LINK_DOWNS_OFFSET, 1);
            for (int node = nextPresent(0); node >= 0; node = nextPresent(node + 1))
            {
                addCounter(node, RfmCounter.SYNC_LOSSES.id(), 1);
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
        return control.getLongVolatile(LINK_DOWNS_OFFSET);
    }

    /**
     * Network reset: zero the memory and every card's counters, close the ring, and send RESET to every attached
     * card. Node claims, enable masks and queued events stay.
     */
    public void reset()
    {
        memory.setMemory(0, memory.capacity(), (byte)0);
        for (int node = 0; node < CARD_COUNT; node++)
        {
            for (int slot = 0; slot < RfmCounter.SLOT_COUNT; slot++)
            {
                control.putLongVolatile(counterOffset(node, slot), 0);
            }
        }
        link(true);
        control.getAndAddLong(NETWORK_RESETS_OFFSET, 1);
        for (int node = nextPresent(0); node >= 0; node = nextPresent(node + 1))
        {
            deliver(node, EventType.RESET, node, 0);
        }
    }

    /**
     * @return network resets done.
     */
    public long resets()
    {
        return control.getLongVolatile(NETWORK_RESETS_OFFSET);
    }

    // ---------------------------------------------------------------------------------------------- cards

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
     * @return pid of the process holding the card, 0 if free.
     */
    public long ownerPid(final int node)
    {
        return control.getLongVolatile(cardOffset(node) + CARD_OWNER_PID_OFFSET);
    }

    /**
     * @param node node id.
     * @return whether the card's holder still runs.
     */
    public boolean ownerAlive(final int node)
    {
        final long pid = ownerPid(node);
        return pid != 0 && ProcStat.isAlive(pid, control.getLongVolatile(cardOffset(node) + CARD_OWNER_START_OFFSET));
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
        final int card = cardOffset(node);
        while (true)
        {
            final long owner = ownerPid(node);
            if (owner == self)
            {
                return RfmStatus.NODE_IN_USE;
            }
            if (owner != 0 && ownerAlive(node))
            {
                return RfmStatus.NODE_IN_USE;
            }
            if (control.compareAndSetLong(card + CARD_OWNER_PID_OFFSET, owner, self))
            {
                initCard(control, node);
                control.putLongVolatile(card + CARD_OWNER_START_OFFSET, ProcStat.startTime(self));
                control.getAndAddInt(card + CARD_CLAIM_GENERATION_OFFSET, 1);
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
        final int card = cardOffset(node);
        setPresent(node, false);
        control.putIntVolatile(card + CARD_ENABLED_MASK_OFFSET, 0);
        control.getAndAddInt(card + CARD_CLAIM_GENERATION_OFFSET, 1);
        control.compareAndSetLong(card + CARD_OWNER_PID_OFFSET, ProcStat.selfPid(), 0);
    }

    /**
     * @param node node id.
     * @return changes each time the card is claimed or released; a cached view of the card is stale when it moves.
     */
    public int claimGeneration(final int node)
    {
        return control.getIntVolatile(cardOffset(node) + CARD_CLAIM_GENERATION_OFFSET);
    }

    /**
     * @param node node id.
     * @return the card's flags.
     */
    public int flags(final int node)
    {
        return control.getIntVolatile(cardOffset(node) + CARD_FLAGS_OFFSET);
    }

    /**
     * @param node node id.
     * @param flag one FLAG_ bit.
     * @param on   set or clear it.
     */
    public void flag(final int node, final int flag, final boolean on)
    {
        final int offset = cardOffset(node) + CARD_FLAGS_OFFSET;
        int was;
        do
        {
            was = control.getIntVolatile(offset);
        }
        while (!control.compareAndSetInt(offset, was, on ? was | flag : was & ~flag));
    }

    /**
     * @param node node id.
     * @return the enabled event mask.
     */
    public int enabledMask(final int node)
    {
        return control.getIntVolatile(cardOffset(node) + CARD_ENABLED_MASK_OFFSET);
    }

    /**
     * @param node node id.
     * @param type event type.
     * @param on   enable or disable it.
     */
    public void enable(final int node, final EventType type, final boolean on)
    {
        final int offset = cardOffset(node) + CARD_ENABLED_MASK_OFFSET;
        final int bit = type.mask();
        int was;
        do
        {
            was = control.getIntVolatile(offset);
        }
        while (!control.compareAndSetInt(offset, was, on ? was | bit : was & ~bit));
    }

    /**
     * @param node  node id.
     * @param slot  counter slot.
     * @param delta amount to add, atomically.
     */
    public void addCounter(final int node, final int slot, final long delta)
    {
        control.getAndAddLong(counterOffset(node, slot), delta);
    }

    /**
     * @param node node id.
     * @param slot counter slot.
     * @return the value.
     */
    public long counter(final int node, final int slot)
    {
        return control.getLongVolatile(counterOffset(node, slot));
    }

    // ---------------------------------------------------------------------------------------------- events

    /**
     * Put an event in a card's FIFO and raise the type's interrupt line, as the card does on arrival. Disabled types
     * are dropped and counted; a full FIFO counts an overflow and raises RXFIFO_FULL. Self-disabling types clear
     * their enable bit as they fire.
     *
     * @param node   receiving node.
     * @param type   event type.
     * @param source sending node.
     * @param data   data word.
     * @return true when queued.
     */
    public boolean deliver(final int node, final EventType type, final int source, final int data)
    {
        if ((enabledMask(node) & type.mask()) == 0)
        {
            addCounter(node, RfmCounter.EVENTS_DISABLED.slot(type), 1);
            return false;
        }
        if (!offer(fifoOffset(node, type), source, data, System.nanoTime()))
        {
            addCounter(node, RfmCounter.FIFO_OVERFLOWS.slot(type), 1);
            if (type != EventType.RXFIFO_FULL)
            {
                deliver(node, EventType.RXFIFO_FULL, node, type.ordinal());
            }
            return false;
        }
        addCounter(node, RfmCounter.EVENTS_RECEIVED.slot(type), 1);
        if (type.selfDisabling())
        {
            enable(node, type, false);
        }
        raise(node, type);
        return true;
    }

    private boolean offer(final int fifo, final int source, final int data, final long nanos)
    {
        while (true)
        {
            final long tail = control.getLongVolatile(fifo + FIFO_TAIL_OFFSET);
            final long head = control.getLongVolatile(fifo + FIFO_HEAD_OFFSET);
            if (tail - head >= EventType.FIFO_CAPACITY)
            {
                return false;
            }
            final int entry = entryOffset(fifo, tail);
            final long sequence = control.getLongAcquire(entry + ENTRY_SEQUENCE_OFFSET);
            if (sequence == tail)
            {
                if (control.compareAndSetLong(fifo + FIFO_TAIL_OFFSET, tail, tail + 1))
                {
                    control.putLong(entry + ENTRY_ARRIVAL_OFFSET, nanos);
                    control.putInt(entry + ENTRY_DATA_OFFSET, data);
                    control.putInt(entry + ENTRY_SOURCE_OFFSET, source);
                    control.putLongRelease(entry + ENTRY_SEQUENCE_OFFSET, tail + 1);
                    return true;
                }
            }
            else if (sequence < tail)
            {
                return false;
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Take the oldest queued event of a type; only the card's holder calls this, from one thread per type.
     *
     * @param node node id.
     * @param type event type.
     * @param into filled when an event is taken.
     * @return true when an event was taken.
     */
    public boolean poll(final int node, final EventType type, final EventInfo into)
    {
        final int fifo = fifoOffset(node, type);
        final long head = control.getLong(fifo + FIFO_HEAD_OFFSET);
        final int entry = entryOffset(fifo, head);
        if (control.getLongAcquire(entry + ENTRY_SEQUENCE_OFFSET) != head + 1)
        {
            return false;
        }
        into.set(type, control.getInt(entry + ENTRY_SOURCE_OFFSET), control.getInt(entry + ENTRY_DATA_OFFSET),
            control.getLong(entry + ENTRY_ARRIVAL_OFFSET));
        control.putLongRelease(entry + ENTRY_SEQUENCE_OFFSET, head + FIFO_SLOTS);
        control.putLongRelease(fifo + FIFO_HEAD_OFFSET, head + 1);
        return true;
    }

    /**
     * @param node node id.
     * @param type event type.
     * @return events queued in the FIFO now.
     */
    public int queued(final int node, final EventType type)
    {
        final int fifo = fifoOffset(node, type);
        return (int)(control.getLongVolatile(fifo + FIFO_TAIL_OFFSET) -
            control.getLongVolatile(fifo + FIFO_HEAD_OFFSET));
    }

    /**
     * Raise a type's interrupt line: bump the futex word and wake the waiter if one sleeps on it.
     *
     * @param node node id.
     * @param type event type.
     */
    public void raise(final int node, final EventType type)
    {
        final int fifo = fifoOffset(node, type);
        control.getAndAddInt(fifo + FIFO_LINE_OFFSET, 1);
        if (control.getIntVolatile(fifo + FIFO_WAITERS_OFFSET) > 0)
        {
            Futex.wake(controlAddress + fifo + FIFO_LINE_OFFSET, Integer.MAX_VALUE);
            addCounter(node, RfmCounter.INTERRUPTS_RAISED.id(), 1);
        }
    }

    /**
     * @param node node id.
     * @param type event type.
     * @return the current value of the type's interrupt line.
     */
    public int line(final int node, final EventType type)
    {
        return control.getIntVolatile(fifoOffset(node, type) + FIFO_LINE_OFFSET);
    }

    /**
     * @param node node id.
     * @param type event type.
     * @return address of the type's interrupt line in this process, for the futex call.
     */
    public long lineAddress(final int node, final EventType type)
    {
        return controlAddress + fifoOffset(node, type) + FIFO_LINE_OFFSET;
    }

    /**
     * Announce or withdraw a sleeper on a line, so that raising skips the wake-up system call when nobody sleeps.
     *
     * @param node  node id.
     * @param type  event type.
     * @param delta +1 before sleeping, -1 after.
     */
    public void addWaiter(final int node, final EventType type, final int delta)
    {
        control.getAndAddInt(fifoOffset(node, type) + FIFO_WAITERS_OFFSET, delta);
    }

    /**
     * Unmap both files.
     */
    @Override
    public void close()
    {
        SharedFiles.unmap(controlMap);
        SharedFiles.unmap(memoryMap);
    }
}
