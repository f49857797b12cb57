package io.rfmrt.rfm;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The card's reflective memory as the host sees it (the PIO mapping of {@code RFM2gUserMemory}).
 * <p>
 * Every access is bounds and alignment checked and throws {@link RfmException} with a message naming the offset
 * and the operation; the checks are a compare and a mask, cheap enough for the hot path. The memory order of each
 * access is in its name: plain ({@code getLong}/{@code putLong}), {@code Acquire}/{@code Release}, or
 * {@code Volatile}. Multi-byte values are little-endian.
 * <p>
 * Thread safety: the window can be shared; ordering between threads and processes is what the method names say.
 * <p>
 * Stores made through the window are the ones a mirroring backend sees ({@link WriteObserver}); stores through
 * {@link #address()} or {@link #newByteBufferView()} bypass it and stay on this host.
 */
public final class RfmWindow
{
    /** Byte order of every multi-byte access. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    private final UnsafeBuffer memory;
    private final int size;
    private final WriteObserver observer;

    /**
     * Told of every store made through a window, right after it: how a backend that mirrors the memory elsewhere
     * (the {@code bridge} of an emulated network to other hosts) learns what its host wrote, in the order each thread
     * wrote it. Called on the writing thread; it must not block, allocate or throw.
     */
    @FunctionalInterface
    public interface WriteObserver
    {
        /**
         * @param offset first byte stored.
         * @param length bytes stored, already in the memory.
         */
        void written(int offset, int length);
    }

    /**
     * @param memory a buffer over the mapped memory image; the window covers all of it.
     */
    public RfmWindow(final UnsafeBuffer memory)
    {
        this(memory, null);
    }

    /**
     * @param memory   a buffer over the mapped memory image; the window covers all of it.
     * @param observer told of every store after it is made, or null.
     */
    public RfmWindow(final UnsafeBuffer memory, final WriteObserver observer)
    {
        this.memory = memory;
        this.size = memory.capacity();
        this.observer = observer;
    }

    private void observe(final int offset, final int length)
    {
        if (observer != null)
        {
            observer.written(offset, length);
        }
    }

    /**
     * @return bytes of memory in the window.
     */
    public int size()
    {
        return size;
    }

    /**
     * @return the address of offset 0 in this process; for native calls only.
     */
    public long address()
    {
        return memory.addressOffset();
    }

    private int check(final long offset, final int width, final String op)
    {
        if (offset < 0 || offset > size - width)
        {
            throw outOfRange(offset, width, op);
        }
        if ((offset & (width - 1)) != 0)
        {
            throw new RfmException(RfmStatus.UNALIGNED_OFFSET,
                String.format("offset 0x%x is not %d-byte aligned for %s", offset, width, op));
        }
        return (int)offset;
    }

    private int checkRange(final long offset, final int length, final String op)
    {
        if (length < 0 || offset < 0 || offset > (long)size - length)
        {
            throw outOfRange(offset, length, op);
        }
        return (int)offset;
    }

    private RfmException outOfRange(final long offset, final int length, final String op)
    {
        return new RfmException(RfmStatus.OUT_OF_RANGE, String.format(
            "offset 0x%x + %d bytes is outside the memory (0x0..0x%x) for %s", offset, length, size - 1L, op));
    }

    /**
     * @param offset byte offset.
     * @return the byte at offset.
     */
    public byte getByte(final long offset)
    {
        return memory.getByte(check(offset, 1, "getByte"));
    }

    /**
     * @param offset byte offset.
     * @param value  value to store.
     */
    public void putByte(final long offset, final byte value)
    {
        final int at = check(offset, 1, "putByte");
        memory.putByte(at, value);
        observe(at, 1);
    }

    /**
     * @param offset 2-byte aligned offset.
     * @return the value.
     */
    public short getShort(final long offset)
    {
        return memory.getShort(check(offset, 2, "getShort"), BYTE_ORDER);
    }

    /**
     * @param offset 2-byte aligned offset.
     * @param value  value to store.
     */
    public void putShort(final long offset, final short value)
    {
        final int at = check(offset, 2, "putShort");
        memory.putShort(at, value, BYTE_ORDER);
        observe(at, 2);
    }

    /**
     * @param offset 4-byte aligned offset.
     * @return the value, plain load.
     */
    public int getInt(final long offset)
    {
        return memory.getInt(check(offset, 4, "getInt"), BYTE_ORDER);
    }

    /**
     * @param offset 4-byte aligned offset.
     * @return the value; later loads are not reordered before this one.
     */
    public int getIntAcquire(final long offset)
    {
        return memory.getIntAcquire(check(offset, 4, "getIntAcquire"));
    }

    /**
     * @param offset 4-byte aligned offset.
     * @return the value, sequentially consistent load.
     */
    public int getIntVolatile(final long offset)
    {
        return memory.getIntVolatile(check(offset, 4, "getIntVolatile"));
    }

    /**
     * @param offset 4-byte aligned offset.
     * @param value  value to store, plain.
     */
    public void putInt(final long offset, final int value)
    {
        final int at = check(offset, 4, "putInt");
        memory.putInt(at, value, BYTE_ORDER);
        observe(at, 4);
    }

    /**
     * @param offset 4-byte aligned offset.
     * @param value  value to store; earlier stores are visible before this one.
     */
    public void putIntRelease(final long offset, final int value)
    {
        final int at = check(offset, 4, "putIntRelease");
        memory.putIntRelease(at, value);
        observe(at, 4);
    }

    /**
     * @param offset 4-byte aligned offset.
     * @param value  value to store, sequentially consistent.
     */
    public void putIntVolatile(final long offset, final int value)
    {
        final int at = check(offset, 4, "putIntVolatile");
        memory.putIntVolatile(at, value);
        observe(at, 4);
    }

    /**
     * @param offset 8-byte aligned offset.
     * @return the value, plain load.
     */
    public long getLong(final long offset)
    {
        return memory.getLong(check(offset, 8, "getLong"), BYTE_ORDER);
    }

    /**
     * @param offset 8-byte aligned offset.
     * @return the value; later loads are not reordered before this one.
     */
    public long getLongAcquire(final long offset)
    {
        return memory.getLongAcquire(check(offset, 8, "getLongAcquire"));
    }

    /**
     * @param offset 8-byte aligned offset.
     * @return the value, sequentially consistent load.
     */
    public long getLongVolatile(final long offset)
    {
        return memory.getLongVolatile(check(offset, 8, "getLongVolatile"));
    }

    /**
     * @param offset 8-byte aligned offset.
     * @param value  value to store, plain.
     */
    public void putLong(final long offset, final long value)
    {
        final int at = check(offset, 8, "putLong");
        memory.putLong(at, value, BYTE_ORDER);
        observe(at, 8);
    }

    /**
     * @param offset 8-byte aligned offset.
     * @param value  value to store; earlier stores are visible before this one.
     */
    public void putLongRelease(final long offset, final long value)
    {
        final int at = check(offset, 8, "putLongRelease");
        memory.putLongRelease(at, value);
        observe(at, 8);
    }

    /**
     * @param offset 8-byte aligned offset.
     * @param value  value to store, sequentially consistent.
     */
    public void putLongVolatile(final long offset, final long value)
    {
        final int at = check(offset, 8, "putLongVolatile");
        memory.putLongVolatile(at, value);
        observe(at, 8);
    }

    /**
     * @param offset 8-byte aligned offset.
     * @param value  value to store; no later store becomes visible before it (seqlock "busy" marks).
     */
    public void putLongThenStoreStoreFence(final long offset, final long value)
    {
        final int at = check(offset, 8, "putLongThenStoreStoreFence");
        memory.putLong(at, value, BYTE_ORDER);
        observe(at, 8);
        VarHandle.storeStoreFence();
    }

    /**
     * Copy out of reflective memory.
     *
     * @param offset   source offset.
     * @param dst      destination.
     * @param dstIndex index in the destination.
     * @param length   bytes.
     */
    public void getBytes(final long offset, final MutableDirectBuffer dst, final int dstIndex, final int length)
    {
        memory.getBytes(checkRange(offset, length, "getBytes"), dst, dstIndex, length);
    }

    /**
     * Copy out of reflective memory.
     *
     * @param offset   source offset.
     * @param dst      destination.
     * @param dstIndex index in the destination.
     * @param length   bytes.
     */
    public void getBytes(final long offset, final byte[] dst, final int dstIndex, final int length)
    {
        memory.getBytes(checkRange(offset, length, "getBytes"), dst, dstIndex, length);
    }

    /**
     * Copy into reflective memory.
     *
     * @param offset   destination offset.
     * @param src      source.
     * @param srcIndex index in the source.
     * @param length   bytes.
     */
    public void putBytes(final long offset, final DirectBuffer src, final int srcIndex, final int length)
    {
        final int at = checkRange(offset, length, "putBytes");
        memory.putBytes(at, src, srcIndex, length);
        observe(at, length);
    }

    /**
     * Copy into reflective memory.
     *
     * @param offset   destination offset.
     * @param src      source.
     * @param srcIndex index in the source.
     * @param length   bytes.
     */
    public void putBytes(final long offset, final byte[] src, final int srcIndex, final int length)
    {
        final int at = checkRange(offset, length, "putBytes");
        memory.putBytes(at, src, srcIndex, length);
        observe(at, length);
    }

    /**
     * Fill a range with one byte value.
     *
     * @param offset start.
     * @param length bytes.
     * @param value  byte to write.
     */
    public void setMemory(final long offset, final int length, final byte value)
    {
        final int at = checkRange(offset, length, "setMemory");
        memory.setMemory(at, length, value);
        observe(at, length);
    }

    /**
     * @return a new byte-buffer view of the whole memory (index = offset) for checksums and bulk I/O; the caller
     * owns its position and limit. Allocates: take one at set-up, not per frame.
     */
    public ByteBuffer newByteBufferView()
    {
        return memory.byteBuffer().duplicate().order(BYTE_ORDER);
    }
}
