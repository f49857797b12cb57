package io.rfmrt.runtime;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.internal.Counters;
import io.rfmrt.runtime.internal.PollingAgent;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The polling duty's poll ends even when a publisher keeps pace with the reader: at most a ring's worth of frames per
 * channel per poll, the rest at the next one, none lost or read twice.
 */
class PollingBoundTest
{
    private static final int SLOTS = 8;

    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-pollbound-");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
        assertThat(root).doesNotExist();
    }

    @Test
    void shouldEndAPollAfterARingsWorthWhileThePublisherWritesAFrameDuringEachRead()
    {
        final ChannelSpec channel = new ChannelSpec("sensor", 1, 0x10000, SLOTS, 128, EventType.INTR1, 2);
        try (RfmDevice sender = RfmDevices.open("sim:pollbound?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:pollbound?node=2&size=1M"))
        {
            final FramePublisher publisher = new FramePublisher(sender, channel);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
            final Runnable publishOne = () ->
            {
                payload.putLong(0, publisher.lastSeq() + 1);
                publisher.publish(payload, 0, payload.capacity(), 0);
            };
            final FrameReceiver receiver = new FrameReceiver(device, channel);
            final List<Long> handled = new ArrayList<>();
            final FrameHandler handler = (FrameView frame, StageStamps stamps) -> handled.add(frame.seq());
            final Counters counters = new Counters();
            final PollingAgent agent = new PollingAgent(new ChannelSpec[] {channel}, new FrameReceiver[] {receiver},
                handler, new StageLatencies(), counters, null, new StepClock(), 1000);
            publishOne.run();
            // each read of a frame is followed by the next frame: without a bound the poll never runs out
            receiver.readFault(publishOne);

            assertThat(agent.poll()).isEqualTo(SLOTS);
            assertThat(agent.poll()).isEqualTo(SLOTS);
            receiver.readFault(null);
            assertThat(agent.poll()).as("the frame written during the last read").isEqualTo(1);
            assertThat(agent.poll()).isZero();

            final List<Long> expected = new ArrayList<>();
            for (long seq = 1; seq <= 2 * SLOTS + 1; seq++)
            {
                expected.add(seq);
            }
            assertThat(handled).isEqualTo(expected);
            assertThat(receiver.counter(FrameCounter.GAPS)).isZero();
        }
    }
}
