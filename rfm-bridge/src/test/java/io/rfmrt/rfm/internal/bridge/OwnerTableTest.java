package io.rfmrt.rfm.internal.bridge;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.BITMAP_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.OVERFLOW_FLAG_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.ownerTableOffset;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The owner table and the overflow bitmap of a bridge file, on a plain buffer laid out as
 * {@link BridgeFileDescriptor} says: which words a write owns, and which words a write that did not fit the outbound
 * log marks for the bridge to send again, bit {@code i} of long {@code n} for word {@code 64 n + i}.
 */
class OwnerTableTest
{
    /** 8 KiB of memory: 1024 words, 16 longs of bitmap. */
    private static final long MEMORY_SIZE = 8192;

    private final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
        ownerTableOffset(MEMORY_SIZE) + (int)(MEMORY_SIZE / 8) + 64, 64));
    private final OwnerTable table = new OwnerTable(buffer, MEMORY_SIZE);

    @Test
    void shouldSizeTheTablesFromTheMemory()
    {
        assertThat(table.words()).isEqualTo(1024);
        assertThat(table.overflowLongs()).isEqualTo(16);
        // a memory that ends inside a long of the bitmap still has that long
        assertThat(new OwnerTable(buffer, 65 * 8).overflowLongs()).isEqualTo(2);
        assertThat(new OwnerTable(buffer, 64 * 8).overflowLongs()).isEqualTo(1);
        assertThat(new OwnerTable(buffer, 8).overflowLongs()).isEqualTo(1);
    }

    @Test
    void shouldOwnEveryWordAWriteTouchesAndNoOther()
    {
        // bytes 12..27: the tail of word 1, word 2, the head of word 3
        table.own(12, 16, 7);
        assertThat(table.owner(0)).isZero();
        assertThat(table.owner(1)).isEqualTo(7);
        assertThat(table.owner(2)).isEqualTo(7);
        assertThat(table.owner(3)).isEqualTo(7);
        assertThat(table.owner(4)).isZero();
        // one word, written exactly
        table.own(64, 8, 9);
        assertThat(table.owner(7)).isZero();
        assertThat(table.owner(8)).isEqualTo(9);
        assertThat(table.owner(9)).isZero();
        // host ids above 127 read back unsigned
        table.own(5, 255);
        assertThat(table.owner(5)).isEqualTo(255);
        table.own(5, 200);
        assertThat(table.owner(5)).isEqualTo(200);
        assertThat(buffer.getByte(ownerTableOffset(MEMORY_SIZE) + 5)).as("the byte the layout gives word 5")
            .isEqualTo((byte)200);
        // the last word of the memory
        table.own(MEMORY_SIZE - 8, 8, 3);
        assertThat(table.owner(1023)).isEqualTo(3);
        assertThat(table.owner(1022)).isZero();
    }

    @Test
    void shouldMarkOneBitPerWordOfAWriteThatDidNotFitTheLog()
    {
        table.markOverflow(8 * 5, 8);
        assertThat(table.peekOverflow(0)).isEqualTo(1L << 5);
        // bytes 12..27: words 1, 2 and 3
        table.markOverflow(12, 16);
        assertThat(table.peekOverflow(0)).isEqualTo(1L << 5 | 0b1110L);
        assertThat(table.peekOverflow(1)).isZero();
        // marked again: nothing changes
        table.markOverflow(12, 16);
        assertThat(table.peekOverflow(0)).isEqualTo(1L << 5 | 0b1110L);
    }

    @Test
    void shouldMarkAWriteAcrossLongsOfTheBitmap()
    {
        // words 62..130: the last two bits of long 0, all of long 1, the first three bits of long 2
        table.markOverflow(62 * 8, (130 - 62 + 1) * 8);
        assertThat(table.peekOverflow(0)).isEqualTo(0b11L << 62);
        assertThat(table.peekOverflow(1)).isEqualTo(-1L);
        assertThat(table.peekOverflow(2)).isEqualTo(0b111L);
        assertThat(table.peekOverflow(3)).isZero();
        // exactly one long's 64 words, aligned
        table.markOverflow(3 * 64 * 8, 64 * 8);
        assertThat(table.peekOverflow(3)).isEqualTo(-1L);
        assertThat(table.peekOverflow(4)).isZero();
        // 63 words from the start of a long: all its bits but the top one
        table.markOverflow(5 * 64 * 8, 63 * 8);
        assertThat(table.peekOverflow(5)).isEqualTo(-1L >>> 1);
        // the last word of the memory: the top bit of the last long
        table.markOverflow(MEMORY_SIZE - 8, 8);
        assertThat(table.peekOverflow(15)).isEqualTo(Long.MIN_VALUE);
        assertThat(buffer.getLong(BITMAP_OFFSET + 15 * 8)).as("where the layout puts long 15")
            .isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void shouldKeepTheBitsOtherWritesMarkedInTheSameLong()
    {
        table.markOverflow(0, 8);
        table.markOverflow(63 * 8, 8);
        table.markOverflow(30 * 8, 16);
        assertThat(table.peekOverflow(0)).isEqualTo(1L | 1L << 63 | 0b11L << 30);
    }

    @Test
    void shouldHandTheBridgeEachMarkedLongOnceAndLeaveItClear()
    {
        table.markOverflow(70 * 8, 8);
        assertThat(table.peekOverflow(1)).as("a peek leaves the bits").isEqualTo(1L << 6);
        assertThat(table.peekOverflow(1)).isEqualTo(1L << 6);
        assertThat(table.takeOverflow(1)).isEqualTo(1L << 6);
        assertThat(table.takeOverflow(1)).as("taken once").isZero();
        assertThat(table.peekOverflow(1)).isZero();
        assertThat(table.takeOverflow(0)).isZero();
        table.markOverflow(70 * 8, 8);
        assertThat(table.takeOverflow(1)).as("marked again after the take").isEqualTo(1L << 6);
    }

    @Test
    void shouldRaiseAndClearTheOverflowFlag()
    {
        assertThat(table.overflowFlag()).isFalse();
        table.raiseOverflowFlag();
        assertThat(table.overflowFlag()).isTrue();
        assertThat(buffer.getInt(OVERFLOW_FLAG_OFFSET)).isEqualTo(1);
        table.raiseOverflowFlag();
        assertThat(table.overflowFlag()).isTrue();
        table.clearOverflowFlag();
        assertThat(table.overflowFlag()).isFalse();
        assertThat(buffer.getInt(OVERFLOW_FLAG_OFFSET)).isZero();
        // any non-zero word is a raised flag
        buffer.putInt(OVERFLOW_FLAG_OFFSET, 2);
        assertThat(table.overflowFlag()).isTrue();
    }
}
