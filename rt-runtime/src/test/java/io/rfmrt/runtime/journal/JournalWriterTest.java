package io.rfmrt.runtime.journal;

import io.rfmrt.runtime.journal.internal.JournalRecordDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The hot path's end of the journal on its own: what each record method puts into the ring, and what it refuses or
 * drops, read straight out of the ring (no journal thread, no disk).
 */
class JournalWriterTest
{
    @Test
    void shouldQueueEveryCounterOfAFullArrayAndASnapshotOfNone()
    {
        final JournalWriter writer = JournalTestSupport.detachedWriter("w", 4096);
        assertThat(writer.counters(5, new long[] {11, 12, 13}, 3)).isTrue();
        assertThat(writer.counters(6, new long[] {21, 22}, 0)).isTrue();
        assertThat(writer.counters(7, new long[] {31, 32, 33}, 2)).isTrue();
        assertThat(JournalTestSupport.takeQueued(writer)).containsExactly(
            "COUNTERS nanos=5 values=[11,12,13] length=" + JournalRecordDescriptor.countersLength(3),
            "COUNTERS nanos=6 values=[] length=" + JournalRecordDescriptor.countersLength(0),
            "COUNTERS nanos=7 values=[31,32] length=" + JournalRecordDescriptor.countersLength(2));
        assertThat(writer.dropped()).isZero();
    }

    @Test
    void shouldDropAndCountARecordOfEveryKindWhenTheRingIsFull()
    {
        final JournalWriter writer = JournalTestSupport.detachedWriter("w", 1024);
        int queued = 0;
        while (queued < 1024 && writer.fault(1, queued, 0, 0))
        {
            queued++;
        }
        assertThat(writer.dropped()).isEqualTo(1);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[8]);
        assertThat(writer.frame(1, 2, 0, 0, 0, 0, 0, 0, 0, payload, 0, 8)).isFalse();
        assertThat(writer.state(1, 2, 3)).isFalse();
        assertThat(writer.counters(1, new long[] {1}, 1)).isFalse();
        assertThat(writer.sample(1, 2, 3, 4, 0, 0, 0, 0, 0, 0)).isFalse();
        assertThat(writer.dropped()).isEqualTo(5);
        assertThat(JournalTestSupport.takeQueued(writer)).hasSize(queued);
        // room again: every kind goes in
        assertThat(writer.state(1, 2, 3)).isTrue();
        assertThat(writer.sample(1, 2, 3, 4, 0, 0, 0, 0, 0, 0)).isTrue();
        assertThat(JournalTestSupport.takeQueued(writer)).containsExactly("STATE", "SAMPLE");
        assertThat(writer.toString()).contains("w", "dropped 5");
    }

    @Test
    void shouldTakeAPayloadThatEndsAtItsBuffersEndAndNameAMissingBuffer()
    {
        final JournalWriter writer = JournalTestSupport.detachedWriter("w", 4096);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
        assertThat(writer.frame(1, 2, 0, 0, 3, 4, 5, 6, 7, payload, 8, 8)).isTrue();
        assertThat(JournalTestSupport.takeQueued(writer)).containsExactly(
            "FRAME seq=1 source=2 send=3 woke=4 validated=5 start=6 end=7 length=8");
        assertThatThrownBy(() -> writer.frame(2, 2, 0, 0, 0, 0, 0, 0, 0, null, 0, 4))
            .isInstanceOf(IndexOutOfBoundsException.class)
            .hasMessage("payload offset 0 length 4 is outside a buffer of null");
        assertThat(writer.dropped()).isZero();
    }
}
