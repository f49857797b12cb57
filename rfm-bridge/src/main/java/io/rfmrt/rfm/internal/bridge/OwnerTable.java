package io.rfmrt.rfm.internal.bridge;

import org.agrona.concurrent.UnsafeBuffer;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.BITMAP_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.OVERFLOW_FLAG_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.WORD_SIZE;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.ownerTableOffset;

/**
 * The two tables of a bridge file that say whose each word of the memory is (layout in
 * {@link BridgeFileDescriptor}): the owner table, the host that wrote each word last as this host knows it (what a
 * resynchronisation serves and how a conflict is settled), and the overflow bitmap with its flag, the words a node's
 * write marked when it did not fit the outbound log (sent again by the bridge). A flyweight over the file's mapping;
 * allocation-free. Writers are named per method: the bridge, or the node processes that write (any number).
 */
public final class OwnerTable
{
    private final UnsafeBuffer buffer;
    private final long memorySize;
    private final int ownerOffset;

    /**
     * @param buffer     the bridge file's mapping.
     * @param memorySize bytes of memory the file serves.
     */
    OwnerTable(final UnsafeBuffer buffer, final long memorySize)
    {
        this.buffer = buffer;
        this.memorySize = memorySize;
        this.ownerOffset = ownerTableOffset(memorySize);
    }

    /**
     * @param word a word index (byte offset / 8).
     * @return the host id that wrote it last, as this host knows, 0 for none.
     */
    public int owner(final int word)
    {
        return buffer.getByte(ownerOffset + word) & 0xFF;
    }

    /**
     * Bridge only.
     *
     * @param offset first byte of a write.
     * @param length its bytes.
     * @param hostId the writer's host.
     */
    public void own(final long offset, final int length, final int hostId)
    {
        final int first = (int)(offset / WORD_SIZE);
        final int last = (int)((offset + length - 1) / WORD_SIZE);
        buffer.setMemory(ownerOffset + first, last - first + 1, (byte)hostId);
    }

    /**
     * Bridge only.
     *
     * @param word   a word index.
     * @param hostId the host that owns it now.
     */
    public void own(final int word, final int hostId)
    {
        buffer.putByte(ownerOffset + word, (byte)hostId);
    }

    /**
     * @return words in the memory (entries of the owner table).
     */
    public int words()
    {
        return (int)(memorySize / WORD_SIZE);
    }

    /**
     * Writers: mark the words of a write that did not fit the log, to be sent again by the bridge.
     *
     * @param offset first byte.
     * @param length bytes.
     */
    public void markOverflow(final long offset, final int length)
    {
        final int first = (int)(offset / WORD_SIZE);
        final int last = (int)((offset + length - 1) / WORD_SIZE);
        for (int word = first; word <= last; )
        {
            final int longIndex = word >>> 6;
            final int end = Math.min(last, (longIndex << 6) + 63);
            final long bits = (end - word == 63 ? -1L : ((1L << (end - word + 1)) - 1)) << (word & 63);
            final int at = BITMAP_OFFSET + longIndex * 8;
            long was;
            do
            {
                was = buffer.getLongVolatile(at);
            }
            while ((was & bits) != bits && !buffer.compareAndSetLong(at, was, was | bits));
            word = end + 1;
        }
    }

    /**
     * Writers: say that words were marked; events are refused until the bridge has sent them.
     */
    public void raiseOverflowFlag()
    {
        buffer.putIntVolatile(OVERFLOW_FLAG_OFFSET, 1);
    }

    /**
     * @return whether a writer marked words the bridge has not taken yet.
     */
    public boolean overflowFlag()
    {
        return buffer.getIntVolatile(OVERFLOW_FLAG_OFFSET) != 0;
    }

    /**
     * Bridge only: it will send what was marked until now.
     */
    public void clearOverflowFlag()
    {
        buffer.putIntVolatile(OVERFLOW_FLAG_OFFSET, 0);
    }

    /**
     * @param longIndex index of a long of the overflow bitmap.
     * @return its bits, left in place.
     */
    public long peekOverflow(final int longIndex)
    {
        return buffer.getLongVolatile(BITMAP_OFFSET + longIndex * 8);
    }

    /**
     * Bridge only: take (and clear) one long of the overflow bitmap.
     *
     * @param longIndex index of a long: words {@code 64 * longIndex} ..
     * @return its bits, bit i for word {@code 64 * longIndex + i}.
     */
    public long takeOverflow(final int longIndex)
    {
        return buffer.getAndSetLong(BITMAP_OFFSET + longIndex * 8, 0);
    }

    /**
     * @return longs in the overflow bitmap.
     */
    public int overflowLongs()
    {
        return (words() + 63) >>> 6;
    }
}
