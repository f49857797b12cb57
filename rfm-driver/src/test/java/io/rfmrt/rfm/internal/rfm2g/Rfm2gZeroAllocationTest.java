package io.rfmrt.rfm.internal.rfm2g;

import com.sun.management.ThreadMXBean;
import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.rfm.channel.FrameView;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The receive cycle on the rfm2g backend (RFM2gWaitForEvent, then RFM2gRead of the frame into the DMA buffer,
 * validate, release, the drain's look at the queue with RFM2gGetEventStats) allocates nothing once warm: the same
 * measure as the sim backend's ZeroAllocationTest.
 */
class Rfm2gZeroAllocationTest
{
    private static final int FRAMES = 100_000;
    private static final int WINDOWS = 5;
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
    void shouldNotAllocateOnTheReceivePathInSteadyState()
    {
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
        try (RfmDevice sender = RfmDevices.open("sim:alloc2g?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("rfm2g:" + Rfm2gStandin.deviceNode(root, "alloc2g", 2, 16 * 128) +
                "?dmaThreshold=64&dmaBase=0x40000000&dmaSlots=16&dmaSlotSize=128"))
        {
            receiver.enableEvent(EventType.INTR1);
            final FramePublisher publisher = new FramePublisher(sender, CHANNEL);
            final FrameReceiver frames = new FrameReceiver(receiver, CHANNEL);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
            final EventInfo event = new EventInfo();
            final DmaCompletion done = new DmaCompletion();
            final FrameView view = new FrameView();
            final long[] checksum = new long[1];

            cycle(FRAMES, receiver, publisher, frames, payload, event, done, view, checksum);
            final long tid = Thread.currentThread().getId();
            final long[] windows = new long[WINDOWS];
            int measured = 0;
            do
            {
                final long before = threads.getThreadAllocatedBytes(tid);
                cycle(FRAMES, receiver, publisher, frames, payload, event, done, view, checksum);
                windows[measured] = threads.getThreadAllocatedBytes(tid) - before;
            }
            while (windows[measured++] != 0 && measured < WINDOWS);

            final long total = (long)(measured + 1) * FRAMES;
            assertThat(frames.counter(FrameCounter.FRAMES)).isEqualTo(total);
            assertThat(frames.counter(FrameCounter.GAPS)).isZero();
            assertThat(checksum[0]).isEqualTo((measured + 1) * ((long)FRAMES * (FRAMES - 1) / 2));
            assertThat(Rfm2gStandin.transfers((Rfm2gDevice)receiver)[0]).as("frames read by DMA").isEqualTo(total);
            assertThat(windows[measured - 1]).as("bytes allocated per window of %d frames: %s", FRAMES,
                java.util.Arrays.toString(java.util.Arrays.copyOf(windows, measured))).isZero();
        }
    }

    private static void cycle(final int count, final RfmDevice receiver, final FramePublisher publisher,
        final FrameReceiver frames, final UnsafeBuffer payload, final EventInfo event, final DmaCompletion done,
        final FrameView view, final long[] checksum)
    {
        for (int i = 0; i < count; i++)
        {
            payload.putLong(0, i);
            if (publisher.publish(payload, 0, 64, 0) != RfmStatus.SUCCESS ||
                receiver.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, event) != RfmStatus.SUCCESS ||
                frames.receiveOnDemand(event.data(), done, view) != FrameStatus.OK)
            {
                throw new AssertionError("frame " + i + " did not make the round");
            }
            checksum[0] += view.buffer().getLong(view.payloadOffset());
            receiver.dma().release(done);
            // the drain after the wake finds the queue empty without a wait in the driver
            if (receiver.pollEvent(EventType.INTR1, event) != RfmStatus.TIMED_OUT)
            {
                throw new AssertionError("frame " + i + ": a second event was queued");
            }
        }
    }
}
