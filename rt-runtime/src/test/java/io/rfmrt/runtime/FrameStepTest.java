package io.rfmrt.runtime;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.internal.Counters;
import io.rfmrt.runtime.internal.FrameStep;
import io.rfmrt.runtime.journal.JournalTestSupport;
import io.rfmrt.runtime.journal.JournalWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The step every receive mode takes with a validated frame, driven by the test alone (no agent, no thread), with a
 * clock that steps: what the handler, the stage histograms, the counters, the journal and the card's DMA ring get for
 * a good frame, a refused one, one written over under the read, a handler that throws and a full journal.
 */
class FrameStepTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x10000, 64, 128, EventType.INTR1, 2);
    private static final int PAYLOAD = 16;
    private static final long SEND_NANOS = 500;

    private Path root;
    private final Counters counters = new Counters();
    private final StageLatencies latencies = new StageLatencies();
    private final List<String> handled = new ArrayList<>();
    private final JournalWriter journal = JournalTestSupport.detachedWriter("step", 1 << 16);

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-frame-step-test-");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
    }

    private FrameStep step(final JournalWriter writer)
    {
        return new FrameStep((frame, stamps) -> handled.add("payload=" + frame.buffer().getLong(frame.payloadOffset()) +
            " seq=" + stamps.seq() + " source=" + stamps.source() + " send=" + stamps.sendNanos() + " woke=" +
            stamps.wokeNanos() + " validated=" + stamps.validatedNanos() + " start=" + stamps.consumerStartNanos()),
            latencies, counters, writer, new StepClock());
    }

    private static void publish(final RfmDevice sender, final int count)
    {
        final FramePublisher publisher = new FramePublisher(sender, SENSOR, () -> SEND_NANOS);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[PAYLOAD]);
        for (int i = 0; i < count; i++)
        {
            payload.putLong(0, 40 + publisher.lastSeq() + 1);
            assertThat(publisher.publish(payload, 0, PAYLOAD, 0)).isEqualTo(RfmStatus.SUCCESS);
        }
    }

    @Test
    void shouldHandAReadFrameToTheHandlerThenRecordCountAndJournalIt()
    {
        try (RfmDevice sender = RfmDevices.open("sim:step-read?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:step-read?node=2&size=1M"))
        {
            publish(sender, 1);
            final FrameReceiver receiver = new FrameReceiver(device, SENSOR);
            final FrameView view = new FrameView();
            final FrameStep step = step(journal);
            final long seq = step.faults().nextToRead(receiver, SENSOR.node());
            assertThat(seq).isEqualTo(1);

            assertThat(step.validated(receiver, receiver.readFromMemory(seq, view), seq, SENSOR.node(), 100, view))
                .isTrue();

            // copied out by the reading thread: validated and start are one clock reading, the end the next
            assertThat(handled).containsExactly("payload=41 seq=1 source=1 send=500 woke=100 validated=1000 start=1000");
            assertThat(JournalTestSupport.takeQueued(journal)).containsExactly(
                "FRAME seq=1 source=1 send=500 woke=100 validated=1000 start=1000 end=2000 length=" + PAYLOAD);
            assertThat(counters.get(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(1);
            latencies.sample();
            assertThat(latencies.cumulative(Stage.HANDLER).getMaxValue()).isEqualTo(1000);
            assertThat(latencies.cumulative(Stage.END_TO_END).getTotalCount()).isEqualTo(1);
            assertThat(step.faults().nextToRead(receiver, SENSOR.node())).as("nothing new").isNegative();
        }
    }

    @Test
    void shouldNeitherCountNorJournalAFrameWrittenOverUnderTheRead()
    {
        try (RfmDevice device = RfmDevices.open("sim:step-overwritten?node=2&size=1M"))
        {
            final FrameReceiver receiver = new FrameReceiver(device, SENSOR);
            final FrameStep step = step(journal);

            assertThat(step.validated(receiver, FrameStatus.OVERWRITTEN, 7, SENSOR.node(), 100, new FrameView()))
                .isFalse();
            assertThat(step.validated(receiver, FrameStatus.CRC_ERROR, 8, SENSOR.node(), 200, new FrameView()))
                .isFalse();

            assertThat(handled).isEmpty();
            assertThat(JournalTestSupport.takeQueued(journal)).containsExactly(
                "FAULT code=" + FrameStatus.CRC_ERROR.id() + " seq=8 value=1 nanos=200");
            assertThat(counters.get(RuntimeCounter.FRAMES_HANDLED)).isZero();
            assertThat(counters.get(RuntimeCounter.JOURNAL_DROPS)).isZero();
        }
    }

    @Test
    void shouldGiveTheDescriptorBackWhetherTheFrameIsRefusedHandledOrTheHandlerThrows()
    {
        try (RfmDevice sender = RfmDevices.open("sim:step-dma?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:step-dma?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=auto"))
        {
            device.enableEvent(EventType.INTR1);
            publish(sender, 3);
            final DmaCompletion[] completions = {new DmaCompletion(), new DmaCompletion(), new DmaCompletion()};
            for (final DmaCompletion completion : completions)
            {
                assertThat(device.dma().takeCompleted(completion)).isTrue();
            }
            final FrameStep step = step(journal);

            step.handle(device.dma(), completions[0], FrameStatus.BAD_HEADER.id(), 1, 1, 0, 100, 200);
            assertThat(handled).as("a refused frame never reaches the handler").isEmpty();
            assertThat(device.dma().freeIndex()).isEqualTo(1);

            step.handle(device.dma(), completions[1], FrameStatus.OK.id(), 2, 1, SEND_NANOS, 100, 200);
            assertThat(handled).containsExactly("payload=42 seq=2 source=1 send=500 woke=100 validated=200 start=1000");
            assertThat(device.dma().freeIndex()).isEqualTo(2);

            final FrameStep throwing = new FrameStep((frame, stamps) ->
            {
                throw new IllegalStateException("handler failed");
            }, latencies, counters, journal, new StepClock());
            assertThatThrownBy(() -> throwing.handle(device.dma(), completions[2], FrameStatus.OK.id(), 3, 1,
                SEND_NANOS, 100, 200)).hasMessage("handler failed");
            assertThat(device.dma().freeIndex()).as("given back even when the handler threw").isEqualTo(3);

            assertThat(JournalTestSupport.takeQueued(journal)).containsExactly(
                "FRAME seq=2 source=1 send=500 woke=100 validated=200 start=1000 end=2000 length=" + PAYLOAD);
            assertThat(counters.get(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(1);
        }
    }

    @Test
    void shouldCountAFrameTheFullJournalCannotTakeAndStillHandleIt()
    {
        try (RfmDevice sender = RfmDevices.open("sim:step-drop?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:step-drop?node=2&size=1M"))
        {
            publish(sender, 1);
            final FrameReceiver receiver = new FrameReceiver(device, SENSOR);
            final FrameView view = new FrameView();
            for (int i = 0; i < 100_000 && journal.state(0, 0, 0); i++)
            {
                // a stalled journal thread: the ring fills
            }
            final FrameStep step = step(journal);
            final long seq = step.faults().nextToRead(receiver, SENSOR.node());

            assertThat(step.validated(receiver, receiver.readFromMemory(seq, view), seq, SENSOR.node(), 100, view))
                .isTrue();
            step.faults().refused(FrameStatus.TORN, 9, SENSOR.node(), 300);

            assertThat(handled).hasSize(1);
            assertThat(counters.get(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(1);
            assertThat(counters.get(RuntimeCounter.JOURNAL_DROPS)).isEqualTo(2);
        }
    }
}
