package io.rfmrt.rfm.channel;

import com.sun.management.ThreadMXBean;
import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The publish → event → DMA → validate → release cycle allocates nothing once warm.
 */
class ZeroAllocationTest
{
    private static final int FRAMES = 100_000;
    private static final ChannelSpec CHANNEL = new ChannelSpec("c", 1, 0x4000, 16, 128, EventType.INTR1, 2);

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

    @Test
    void shouldNotAllocateInSteadyState()
    {
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
        try (RfmDevice sender = RfmDevices.open("sim:alloc?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:alloc?node=2&size=1M&dmaSlots=16&dmaSlotSize=128"))
        {
            receiver.enableEvent(EventType.INTR1);
            final FramePublisher publisher = new FramePublisher(sender, CHANNEL);
            final FrameReceiver frames = new FrameReceiver(receiver, CHANNEL);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
            final EventInfo event = new EventInfo();
            final DmaCompletion done = new DmaCompletion();
            final FrameView view = new FrameView();
            final long[] checksum = new long[1];

            cycle(FRAMES, sender, receiver, publisher, frames, payload, event, done, view, checksum);
            final long tid = Thread.currentThread().getId();
            final long before = threads.getThreadAllocatedBytes(tid);
            cycle(FRAMES, sender, receiver, publisher, frames, payload, event, done, view, checksum);
            final long allocated = threads.getThreadAllocatedBytes(tid) - before;

            assertThat(frames.counter(FrameCounter.FRAMES)).isEqualTo(2L * FRAMES);
            assertThat(frames.counter(FrameCounter.GAPS)).isZero();
            assertThat(checksum[0]).isEqualTo(2L * FRAMES * (FRAMES - 1) / 2 * 1);
            assertThat(allocated).as("bytes allocated over %d frames", FRAMES).isZero();
        }
    }

    @Test
    void shouldNotAllocateWhenBothSidesBlockInTheKernel() throws Exception
    {
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        // long enough for every method on the path to reach its final compiled form
        final int warmup = 60_000;
        try (RfmDevice sender = RfmDevices.open("sim:alloc?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:alloc?node=2&size=1M&dmaSlots=16&dmaSlotSize=128"))
        {
            receiver.enableEvent(EventType.INTR1);
            sender.enableEvent(EventType.INTR2);
            final FramePublisher publisher = new FramePublisher(sender, CHANNEL);
            final FrameReceiver frames = new FrameReceiver(receiver, CHANNEL);
            final long[] receiverAllocated = new long[1];
            final Thread echo = new Thread(() ->
            {
                final EventInfo event = new EventInfo();
                final DmaCompletion done = new DmaCompletion();
                final FrameView view = new FrameView();
                final long tid = Thread.currentThread().getId();
                long before = threads.getThreadAllocatedBytes(tid);
                for (int i = 0; i < warmup + FRAMES; i++)
                {
                    if (i == warmup)
                    {
                        before = threads.getThreadAllocatedBytes(tid);
                    }
                    if (receiver.awaitEvent(EventType.INTR1, RfmDevice.INFINITE_TIMEOUT, event) != RfmStatus.SUCCESS)
                    {
                        return;
                    }
                    while (receiver.dma().takeCompleted(done))
                    {
                        frames.receiveCompleted(done, view);
                        receiver.dma().release(done);
                    }
                    receiver.sendEvent(1, EventType.INTR2, event.data());
                }
                receiverAllocated[0] = threads.getThreadAllocatedBytes(tid) - before;
            }, "echo");
            echo.start();

            final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
            final EventInfo reply = new EventInfo();
            final long tid = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(tid);
            for (int i = 0; i < warmup + FRAMES; i++)
            {
                if (i == warmup)
                {
                    before = threads.getThreadAllocatedBytes(tid);
                }
                payload.putLong(0, i);
                publisher.publish(payload, 0, payload.capacity(), 0);
                if (sender.awaitEvent(EventType.INTR2, 5_000_000_000L, reply) != RfmStatus.SUCCESS)
                {
                    throw new AssertionError("no reply to frame " + i);
                }
            }
            final long senderAllocated = threads.getThreadAllocatedBytes(tid) - before;
            echo.join(10_000);

            assertThat(frames.counter(FrameCounter.FRAMES)).isEqualTo(warmup + FRAMES);
            assertThat(receiver.counter(io.rfmrt.rfm.RfmCounter.INTERRUPTS_RAISED, null))
                .as("the echo thread slept in the kernel").isPositive();
            assertThat(senderAllocated).as("sender thread bytes").isZero();
            assertThat(receiverAllocated[0]).as("receiver thread bytes").isZero();
        }
    }

    private static void cycle(final int count, final RfmDevice sender, final RfmDevice receiver,
        final FramePublisher publisher, final FrameReceiver frames, final UnsafeBuffer payload, final EventInfo event,
        final DmaCompletion done, final FrameView view, final long[] checksum)
    {
        for (int i = 0; i < count; i++)
        {
            payload.putLong(0, i);
            if (publisher.publish(payload, 0, payload.capacity(), 0) != RfmStatus.SUCCESS ||
                receiver.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, event) != RfmStatus.SUCCESS ||
                !receiver.dma().takeCompleted(done))
            {
                throw new AssertionError("frame " + i + " did not arrive");
            }
            if (frames.receiveCompleted(done, view) == FrameStatus.OK)
            {
                checksum[0] += view.buffer().getLong(view.payloadOffset());
            }
            receiver.dma().release(done);
        }
    }
}
