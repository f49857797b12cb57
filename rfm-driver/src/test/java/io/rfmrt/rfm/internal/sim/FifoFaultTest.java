package io.rfmrt.rfm.internal.sim;

import com.sun.management.ThreadMXBean;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.ENTRY_SEQUENCE_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FIFO_TAIL_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.entryOffset;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.fifoOffset;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A card whose event FIFO in the control block is corrupt, as another process could leave it: a sender neither
 * waits on it nor writes into it; the receiving card counts the lost event as a FIFO fault and raises BAD_DATA with
 * the faulty type's id, as it raises RXFIFO_FULL for an overflow. One thread, no sleeps: every step returns at once.
 */
class FifoFaultTest
{
    private static final int SENDS = 100_000;
    private static final int WINDOWS = 5;

    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimTestSupport.freshRoot();
    }

    @AfterEach
    void tearDown()
    {
        SimTestSupport.removeRoot(root);
    }

    private static RfmDevice open(final int node)
    {
        return RfmDevices.open("sim:lab?node=" + node + "&size=1M");
    }

    @Test
    void shouldRefuseACorruptFifoWithoutAllocating()
    {
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
        try (RfmDevice one = open(1); RfmDevice two = open(2))
        {
            two.enableEvent(EventType.INTR1);
            final UnsafeBuffer control = ((SimDevice)two).network().control();
            control.putLong(entryOffset(fifoOffset(2, EventType.INTR1), 0) + ENTRY_SEQUENCE_OFFSET, 2);
            send(one, SENDS);
            // as in the frame path's allocation test: once the JIT has settled a whole window allocates nothing
            final long tid = Thread.currentThread().getId();
            final long[] windows = new long[WINDOWS];
            int measured = 0;
            do
            {
                final long before = threads.getThreadAllocatedBytes(tid);
                send(one, SENDS);
                windows[measured] = threads.getThreadAllocatedBytes(tid) - before;
            }
            while (windows[measured++] != 0 && measured < WINDOWS);
            assertThat(two.counter(RfmCounter.FIFO_FAULTS, null)).isEqualTo((long)(measured + 1) * SENDS);
            assertThat(two.counter(RfmCounter.EVENTS_DISABLED, EventType.BAD_DATA)).as("BAD_DATA not enabled")
                .isEqualTo((long)(measured + 1) * SENDS);
            assertThat(windows[measured - 1]).as("bytes allocated per window of %d sends: %s", SENDS,
                Arrays.toString(windows)).isZero();
        }
    }

    private static void send(final RfmDevice from, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            if (from.sendEvent(2, EventType.INTR1, i) != RfmStatus.SUCCESS)
            {
                throw new AssertionError("send " + i + " refused");
            }
        }
    }

    @Test
    void shouldCountAFifoFaultAndRaiseBadDataInsteadOfSpinningOnACorruptFifo()
    {
        try (RfmDevice one = open(1); RfmDevice two = open(2))
        {
            two.enableEvent(EventType.INTR1);
            two.enableEvent(EventType.BAD_DATA);
            final UnsafeBuffer control = ((SimDevice)two).network().control();
            final int intr1 = fifoOffset(2, EventType.INTR1);
            // the FIFO is empty, yet the entry at its tail says a later sender claimed it
            control.putLong(entryOffset(intr1, 0) + ENTRY_SEQUENCE_OFFSET, 2);

            assertThat(one.sendEvent(2, EventType.INTR1, 0x77)).as("the sender's card put it on the ring")
                .isEqualTo(RfmStatus.SUCCESS);
            assertThat(two.counter(RfmCounter.FIFO_FAULTS, null)).isEqualTo(1);
            assertThat(two.counter(RfmCounter.EVENTS_RECEIVED, EventType.INTR1)).isZero();
            assertThat(two.counter(RfmCounter.FIFO_OVERFLOWS, EventType.INTR1)).as("not an overflow").isZero();
            assertThat(control.getLong(intr1 + FIFO_TAIL_OFFSET)).as("nothing claimed").isZero();
            final EventInfo info = new EventInfo();
            assertThat(two.awaitEvent(EventType.BAD_DATA, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.sourceNode()).as("raised by the card itself").isEqualTo(2);
            assertThat(info.data()).as("the faulty FIFO's type id").isEqualTo(EventType.INTR1.id());
            assertThat(two.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.TIMED_OUT);

            // BAD_DATA disabled itself as it fired: the next fault is still counted, its BAD_DATA dropped as disabled
            one.sendEvent(2, EventType.INTR1, 0x78);
            assertThat(two.counter(RfmCounter.FIFO_FAULTS, null)).isEqualTo(2);
            assertThat(two.counter(RfmCounter.EVENTS_DISABLED, EventType.BAD_DATA)).isEqualTo(1);

            // BAD_DATA's own FIFO corrupt too: both faults counted, nothing more raised, the send still returns
            two.enableEvent(EventType.BAD_DATA);
            control.putLong(fifoOffset(2, EventType.BAD_DATA) + FIFO_TAIL_OFFSET, 1_000);
            assertThat(one.sendEvent(2, EventType.INTR1, 0x79)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(two.counter(RfmCounter.FIFO_FAULTS, null)).isEqualTo(4);
            assertThat(two.counter(RfmCounter.EVENTS_RECEIVED, EventType.BAD_DATA)).isEqualTo(1);
            assertThat(two.counter(RfmCounter.EVENTS_RECEIVED, EventType.RXFIFO_FULL)).isZero();

            // a FIFO put right takes events again
            control.putLong(entryOffset(intr1, 0) + ENTRY_SEQUENCE_OFFSET, 0);
            assertThat(one.sendEvent(2, EventType.INTR1, 0x7A)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(two.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.data()).isEqualTo(0x7A);
        }
    }
}
