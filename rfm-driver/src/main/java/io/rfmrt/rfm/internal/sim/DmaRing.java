package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.internal.LibC;
import io.rfmrt.rfm.internal.SharedFiles;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

import static io.rfmrt.rfm.internal.sim.DmaRingDescriptor.*;

/**
 * One node's DMA descriptor ring and host buffers, mapped into this process. The holder creates it
 * ({@link #create}); senders in auto mode {@link #attach} it and {@link #fill} it as the card would.
 */
public final class DmaRing implements AutoCloseable
{
    /** Default descriptors per ring. */
    public static final int DEFAULT_SLOT_COUNT = 64;
    /** Default bytes per host buffer. */
    public static final int DEFAULT_SLOT_SIZE = 2048;
    /** Most descriptors per ring. */
    public static final int MAX_SLOT_COUNT = 65536;
    /** Most bytes per host buffer. */
    public static final int MAX_SLOT_SIZE = 1 << 20;
    /** Default bound on a backpressure wait before the transfer is dropped. */
    public static final long DEFAULT_BACKPRESSURE_TIMEOUT_NS = 1_000_000L;
    /** Longest backpressure wait a ring file may ask of its fillers; a longer one is refused as corrupt. */
    public static final long MAX_BACKPRESSURE_TIMEOUT_NS = TimeUnit.HOURS.toNanos(1);

    private final NetworkImage network;
    private final int node;
    private final MappedByteBuffer map;
    private final UnsafeBuffer ring;
    private final int slotCount;
    private final int slotMask;
    private final int slotSize;
    private final int buffersOffset;
    private final DmaMode mode;
    private final DmaRingFullPolicy policy;
    private final long backpressureTimeoutNs;
    /** The free index when a wait of this filler last timed out, or -1: a consumer that has not moved since is not
     * waited for again, so a node that stopped costs its fillers one time-out, not one per transfer. */
    private long freeAtLastTimeout = -1;
    private final boolean locked;

    private DmaRing(final NetworkImage network, final int node, final MappedByteBuffer map, final boolean locked)
    {
        this.network = network;
        this.node = node;
        this.map = map;
        this.ring = new UnsafeBuffer(map);
        this.slotCount = ring.getInt(SLOT_COUNT_OFFSET);
        this.slotMask = slotCount - 1;
        this.slotSize = ring.getInt(SLOT_SIZE_OFFSET);
        this.buffersOffset = buffersOffset(slotCount);
        this.mode = DmaMode.fromId(ring.getInt(MODE_OFFSET));
        this.policy = DmaRingFullPolicy.fromId(ring.getInt(POLICY_OFFSET));
        this.backpressureTimeoutNs = ring.getLong(BACKPRESSURE_TIMEOUT_OFFSET);
        this.locked = locked;
    }

    /**
     * @param network the network.
     * @param node    node id.
     * @return the DMA file of that node.
     */
    public static Path file(final NetworkImage network, final int node)
    {
        return network.dir().resolve(String.format("dma-%03d", node));
    }

    /**
     * Create a fresh ring for a node this process holds, replacing any old one; lock and pre-touch its buffers.
     *
     * @param network   the network.
     * @param node      node id, held by this process.
     * @param mode      how the ring is filled.
     * @param policy    what a full ring does.
     * @param slotCount descriptors, a power of two ≥ 2.
     * @param slotSize  bytes per buffer, a multiple of 64.
     * @return the ring.
     */
    public static DmaRing create(final NetworkImage network, final int node, final DmaMode mode,
        final DmaRingFullPolicy policy, final int slotCount, final int slotSize)
    {
        return create(network, node, mode, policy, slotCount, slotSize, DEFAULT_BACKPRESSURE_TIMEOUT_NS);
    }

    /**
     * Build the ring of a node, as {@link #create(NetworkImage, int, DmaMode, DmaRingFullPolicy, int, int)}, with
     * the longest time a filler waits for a free descriptor under {@link DmaRingFullPolicy#BACKPRESSURE}.
     *
     * @param network               the network.
     * @param node                  the node the ring belongs to.
     * @param mode                  DMA mode.
     * @param policy                what a full ring does.
     * @param slotCount             descriptors, a power of two ≥ 2.
     * @param slotSize              bytes per buffer, a multiple of 64.
     * @param backpressureTimeoutNs how long a filler waits for a free descriptor before it drops, 0 to 1 h.
     * @return the ring.
     */
    public static DmaRing create(final NetworkImage network, final int node, final DmaMode mode,
        final DmaRingFullPolicy policy, final int slotCount, final int slotSize, final long backpressureTimeoutNs)
    {
        final String problem = slotProblem(slotCount, slotSize);
        if (problem != null)
        {
            throw new RfmException(RfmStatus.OUT_OF_RANGE, "DMA " + problem);
        }
        if (backpressureTimeoutNs < 0 || backpressureTimeoutNs > MAX_BACKPRESSURE_TIMEOUT_NS)
        {
            throw new RfmException(RfmStatus.OUT_OF_RANGE, "DMA backpressure time-out " + backpressureTimeoutNs +
                " ns is outside 0-" + MAX_BACKPRESSURE_TIMEOUT_NS + " ns");
        }
        final Path file = file(network, node);
        final Path tmp = SharedFiles.createTemporary(file, fileSize(slotCount, slotSize));
        final MappedByteBuffer map = SharedFiles.map(tmp, "DMA ring");
        final UnsafeBuffer buffer = new UnsafeBuffer(map);
        buffer.putInt(SLOT_COUNT_OFFSET, slotCount);
        buffer.putInt(SLOT_SIZE_OFFSET, slotSize);
        buffer.putInt(MODE_OFFSET, mode.id());
        buffer.putInt(POLICY_OFFSET, policy.id());
        buffer.putInt(NODE_OFFSET, node);
        buffer.putLong(BACKPRESSURE_TIMEOUT_OFFSET, backpressureTimeoutNs);
        // pre-touch every page so that no transfer takes a page fault, then lock the buffers in memory
        final int buffers = buffersOffset(slotCount);
        for (long offset = 0; offset < buffer.capacity(); offset += PAGE_SIZE)
        {
            buffer.putByte((int)offset, (byte)0);
        }
        final boolean locked = LibC.loadFailure() == null &&
            LibC.mlock(buffer.addressOffset() + buffers, buffer.capacity() - buffers) == 0;
        buffer.putIntRelease(VERSION_OFFSET, LAYOUT_VERSION);
        buffer.putLongRelease(MAGIC_OFFSET, MAGIC);
        try
        {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            SharedFiles.unmap(map);
            throw new RfmException(RfmStatus.OS_ERROR, "cannot create DMA ring " + file + ": " + ex.getMessage(), ex);
        }
        return new DmaRing(network, node, map, locked);
    }

    /**
     * Map another node's ring to fill it. The file is another process's and may be damaged or forged: every field
     * the filler relies on is checked against this build's bounds and against the file's length before the ring is
     * handed out, so that no later fill can reach past the mapping or wait without bound.
     *
     * @param network the network.
     * @param node    node id.
     * @return the ring, or null when the node has none (yet).
     * @throws RfmException BAD_LAYOUT with one line naming the file, the field and its value when the file is not a
     *                      ring this build can fill.
     */
    public static DmaRing attach(final NetworkImage network, final int node)
    {
        final Path file = file(network, node);
        if (!Files.isRegularFile(file))
        {
            return null;
        }
        final MappedByteBuffer map = SharedFiles.map(file, "DMA ring");
        final String problem = layoutProblem(new UnsafeBuffer(map), node);
        if (problem != null)
        {
            SharedFiles.unmap(map);
            throw new RfmException(RfmStatus.BAD_LAYOUT, "DMA ring " + file + " " + problem);
        }
        return new DmaRing(network, node, map, false);
    }

    /**
     * Check a mapped ring file as a filler needs it: magic and version, then each header field within this build's
     * bounds, then the file long enough for the descriptors and buffers that the header promises.
     *
     * @param buffer the whole file.
     * @param node   the node whose ring it should be.
     * @return null when the file can be filled, else what is wrong, naming the field and its value.
     */
    static String layoutProblem(final UnsafeBuffer buffer, final int node)
    {
        final int length = buffer.capacity();
        if (length < HEADER_SIZE)
        {
            return "is " + length + " bytes, shorter than its " + HEADER_SIZE + "-byte header";
        }
        final long magic = buffer.getLongAcquire(MAGIC_OFFSET);
        if (magic != MAGIC)
        {
            return String.format("has a foreign or corrupt header: magic 0x%016x, expected 0x%016x", magic, MAGIC);
        }
        final int version = buffer.getInt(VERSION_OFFSET);
        if (version != LAYOUT_VERSION)
        {
            return "has a foreign or corrupt header: layout version " + version + ", this build reads " +
                LAYOUT_VERSION;
        }
        final int slotCount = buffer.getInt(SLOT_COUNT_OFFSET);
        final int slotSize = buffer.getInt(SLOT_SIZE_OFFSET);
        final String bound = slotProblem(slotCount, slotSize);
        if (bound != null)
        {
            return "has a corrupt header: " + bound;
        }
        final long needed = fileSize(slotCount, slotSize);
        if (length < needed)
        {
            return "is " + length + " bytes, but its header's slot count " + slotCount + " and slot size " +
                slotSize + " need " + needed;
        }
        final int mode = buffer.getInt(MODE_OFFSET);
        final int policy = buffer.getInt(POLICY_OFFSET);
        if (DmaMode.fromId(mode) == null || DmaRingFullPolicy.fromId(policy) == null)
        {
            return "has unknown mode id " + mode + " or ring-full policy id " + policy;
        }
        final int owner = buffer.getInt(NODE_OFFSET);
        if (owner != node)
        {
            return "has node id " + owner + " in its header, expected " + node;
        }
        final long timeoutNs = buffer.getLong(BACKPRESSURE_TIMEOUT_OFFSET);
        if (timeoutNs < 0 || timeoutNs > MAX_BACKPRESSURE_TIMEOUT_NS)
        {
            return "has a backpressure time-out of " + timeoutNs + " ns, not between 0 and " +
                MAX_BACKPRESSURE_TIMEOUT_NS + " ns";
        }
        return null;
    }

    /** The ring's geometry against this build's bounds: null when both hold, else the first broken one. */
    private static String slotProblem(final int slotCount, final int slotSize)
    {
        if (slotCount < 2 || slotCount > MAX_SLOT_COUNT || !BitUtil.isPowerOfTwo(slotCount))
        {
            return "slot count " + slotCount + " is not a power of two between 2 and " + MAX_SLOT_COUNT;
        }
        if (slotSize < 64 || slotSize > MAX_SLOT_SIZE || slotSize % 64 != 0)
        {
            return "slot size " + slotSize + " is not a multiple of 64 between 64 and 1M";
        }
        return null;
    }

    /**
     * @return whether this process locked the host buffers (only the creator does).
     */
    public boolean locked()
    {
        return locked;
    }

    /**
     * @return how the ring is filled.
     */
    public DmaMode mode()
    {
        return mode;
    }

    /**
     * @return what a full ring does.
     */
    public DmaRingFullPolicy policy()
    {
        return policy;
    }

    /**
     * @return descriptors.
     */
    public int slotCount()
    {
        return slotCount;
    }

    /**
     * @return bytes per host buffer.
     */
    public int slotSize()
    {
        return slotSize;
    }

    /**
     * Check the source side of the card's rules: RFM offset alignment, length multiple, bounds.
     *
     * @param rfmOffset  source offset.
     * @param length     bytes.
     * @param memorySize bytes of reflective memory.
     * @return null when legal, else the problem in one line.
     */
    public static String sourceProblem(final long rfmOffset, final int length, final long memorySize)
    {
        if ((rfmOffset & (DmaEngine.RFM_OFFSET_ALIGNMENT - 1)) != 0)
        {
            return String.format("DMA source offset 0x%x is not %d-byte aligned", rfmOffset,
                DmaEngine.RFM_OFFSET_ALIGNMENT);
        }
        if (length <= 0 || length % DmaEngine.LENGTH_MULTIPLE != 0)
        {
            return "DMA length " + length + " is not a positive multiple of " + DmaEngine.LENGTH_MULTIPLE;
        }
        if (rfmOffset < 0 || rfmOffset > memorySize - length)
        {
            return String.format("DMA source 0x%x + %d bytes is outside the memory (0x0..0x%x)", rfmOffset, length,
                memorySize - 1);
        }
        return null;
    }

    /**
     * Check the destination side of the card's rules for this ring.
     *
     * @param length     bytes.
     * @param destOffset offset in the host buffer.
     * @return null when legal, else the problem in one line.
     */
    public String destinationProblem(final int length, final int destOffset)
    {
        if (destOffset < 0 || ((ring.addressOffset() + buffersOffset + destOffset) &
            (DmaEngine.DESTINATION_ALIGNMENT - 1)) != 0)
        {
            return "DMA destination offset " + destOffset + " is not " + DmaEngine.DESTINATION_ALIGNMENT +
                "-byte aligned";
        }
        if ((long)destOffset + length > slotSize)
        {
            return "DMA length " + length + " at destination offset " + destOffset + " exceeds the slot size " +
                slotSize + " of node " + node;
        }
        return null;
    }

    /**
     * Check every rule for a transfer into this ring; count and throw if one is broken.
     *
     * @param rfmOffset  source offset.
     * @param length     bytes.
     * @param destOffset offset in the host buffer.
     * @param memorySize bytes of reflective memory.
     */
    public void checkRules(final long rfmOffset, final int length, final int destOffset, final long memorySize)
    {
        String problem = sourceProblem(rfmOffset, length, memorySize);
        if (problem == null)
        {
            problem = destinationProblem(length, destOffset);
        }
        if (problem != null)
        {
            network.card(node).addCounter(RfmCounter.DMA_REJECTED.id(), 1);
            throw new RfmException(problem.contains("aligned") ? RfmStatus.UNALIGNED_OFFSET : RfmStatus.OUT_OF_RANGE,
                problem);
        }
    }

    /**
     * Do one transfer as the card would: claim the next free descriptor (by the ring-full policy), copy, complete
     * with a release store. Rules must have been checked.
     *
     * @param memory     reflective memory.
     * @param rfmOffset  source offset.
     * @param length     bytes.
     * @param destOffset offset in the host buffer.
     * @param sourceNode node whose card moves the data.
     * @param eventData  data word of the event that goes with it.
     * @return SUCCESS, or DMA_FAILED when dropped because the ring stayed full.
     */
    public RfmStatus fill(final UnsafeBuffer memory, final long rfmOffset, final int length, final int destOffset,
        final int sourceNode, final int eventData)
    {
        long index;
        long stallDeadline = 0;
        while (true)
        {
            index = ring.getLongVolatile(HARDWARE_INDEX_OFFSET);
            final long free = ring.getLongAcquire(FREE_INDEX_OFFSET);
            if (index - free >= slotCount)
            {
                if (policy == DmaRingFullPolicy.DROP_NEWEST)
                {
                    network.card(node).addCounter(RfmCounter.DMA_DROPPED.id(), 1);
                    return RfmStatus.DMA_FAILED;
                }
                if (free == freeAtLastTimeout)
                {
                    network.card(node).addCounter(RfmCounter.DMA_DROPPED.id(), 1);
                    return RfmStatus.DMA_FAILED;
                }
                final long now = System.nanoTime();
                if (stallDeadline == 0)
                {
                    stallDeadline = now + backpressureTimeoutNs;
                    network.card(node).addCounter(RfmCounter.DMA_BACKPRESSURE_STALLS.id(), 1);
                }
                else if (now - stallDeadline > 0)
                {
                    freeAtLastTimeout = free;
                    network.card(node).addCounter(RfmCounter.DMA_DROPPED.id(), 1);
                    return RfmStatus.DMA_FAILED;
                }
                Thread.onSpinWait();
                continue;
            }
            if (ring.compareAndSetLong(HARDWARE_INDEX_OFFSET, index, index + 1))
            {
                break;
            }
        }
        final int slot = (int)(index & slotMask);
        final int descriptor = descriptorOffset(slot);
        ring.putBytes(buffersOffset + slot * slotSize + destOffset, memory, (int)rfmOffset, length);
        ring.putLong(descriptor + DESC_RFM_OFFSET_OFFSET, rfmOffset);
        ring.putInt(descriptor + DESC_SLOT_OFFSET, slot);
        ring.putInt(descriptor + DESC_LENGTH_OFFSET, length);
        ring.putInt(descriptor + DESC_DEST_OFFSET_OFFSET, destOffset);
        ring.putInt(descriptor + DESC_STATUS_OFFSET, 0);
        ring.putInt(descriptor + DESC_SOURCE_NODE_OFFSET, sourceNode);
        ring.putInt(descriptor + DESC_EVENT_DATA_OFFSET, eventData);
        ring.putLong(descriptor + DESC_COMPLETION_NANOS_OFFSET, System.nanoTime());
        ring.putLongRelease(descriptor + DESC_COMPLETION_SEQUENCE_OFFSET, index + 1);
        network.card(node).addCounter(RfmCounter.DMA_COMPLETED.id(), 1);
        return RfmStatus.SUCCESS;
    }

    /**
     * ISR side: take the oldest completed descriptor.
     *
     * @param into filled on success.
     * @return true when one was taken.
     */
    public boolean takeCompleted(final DmaCompletion into)
    {
        final long index = ring.getLong(COMPLETED_INDEX_OFFSET);
        final int slot = (int)(index & slotMask);
        final int descriptor = descriptorOffset(slot);
        if (ring.getLongAcquire(descriptor + DESC_COMPLETION_SEQUENCE_OFFSET) != index + 1)
        {
            return false;
        }
        into.set(index, slot, map, buffersOffset + slot * slotSize, slotSize,
            ring.getLong(descriptor + DESC_RFM_OFFSET_OFFSET),
            ring.getInt(descriptor + DESC_LENGTH_OFFSET),
            ring.getInt(descriptor + DESC_DEST_OFFSET_OFFSET),
            ring.getInt(descriptor + DESC_SOURCE_NODE_OFFSET),
            ring.getInt(descriptor + DESC_EVENT_DATA_OFFSET),
            ring.getLong(descriptor + DESC_COMPLETION_NANOS_OFFSET),
            ring.getInt(descriptor + DESC_STATUS_OFFSET));
        ring.putLongRelease(COMPLETED_INDEX_OFFSET, index + 1);
        return true;
    }

    /**
     * Consumer side: give the oldest taken descriptor back.
     *
     * @param done the completion taken.
     */
    public void release(final DmaCompletion done)
    {
        final long free = ring.getLong(FREE_INDEX_OFFSET);
        if (done.descriptorIndex() != free)
        {
            throw new IllegalStateException("DMA descriptor " + done.descriptorIndex() +
                " released out of order, next to release is " + free);
        }
        ring.putLongRelease(FREE_INDEX_OFFSET, free + 1);
    }

    /**
     * @return descriptors filled.
     */
    public long hardwareIndex()
    {
        return ring.getLongVolatile(HARDWARE_INDEX_OFFSET);
    }

    /**
     * @return descriptors taken.
     */
    public long completedIndex()
    {
        return ring.getLongVolatile(COMPLETED_INDEX_OFFSET);
    }

    /**
     * @return descriptors given back.
     */
    public long freeIndex()
    {
        return ring.getLongVolatile(FREE_INDEX_OFFSET);
    }

    /**
     * Unmap; the file stays for other processes until the holder replaces or deletes it.
     */
    @Override
    public void close()
    {
        SharedFiles.unmap(map);
    }
}
