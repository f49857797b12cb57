package io.rfmrt.runtime;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warm-up makes the receive path take what a run only does under overload or loss, so that those branches are in
 * the profile the optimising compiler compiles (an uncommon trap on an RT thread mid-run throws its code away).
 */
class ReceiveWarmUpTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x10000, 1024, 128, EventType.INTR1, 2);
    private static final int FRAMES = 2 * ReceiveWarmUp.OVERRUN_EVERY_FRAMES;

    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-warmup-test-");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
    }

    @Test
    void shouldDrainAFullRingDropAndSkipFramesInTheInlineWarmUp()
    {
        final ReceiveWarmUp.Result result = warmUp("auto", "INLINE", (frame, stamps) -> { });

        assertOverrunTaken(result);
        assertThat(result.dmaDropped()).as("frames the card dropped, its DMA ring full").isPositive();
        // the numbers skipped by the publishers (one per 2,048 frames) and the frames the card dropped
        assertThat(result.gaps())
            .isGreaterThanOrEqualTo(result.dmaDropped() + FRAMES / ReceiveWarmUp.SKIP_EVERY_FRAMES);
    }

    @Test
    void shouldDrainAFullRingInTheHandOffWarmUp()
    {
        final ReceiveWarmUp.Result result = warmUp("auto", "BLOCKING", (frame, stamps) -> { });

        assertOverrunTaken(result);
        assertThat(result.dmaDropped()).as("frames the card dropped, its DMA ring full").isPositive();
        assertThat(result.gaps()).isGreaterThanOrEqualTo(result.dmaDropped());
    }

    @Test
    void shouldDrainAFullRingWhenFramesAreFoundByNumber()
    {
        final ReceiveWarmUp.Result result = warmUp("on-demand", "BLOCKING", (frame, stamps) -> { });

        assertOverrunTaken(result);
        // what only the overrun's second burst does found by number: the DMA ring runs out of descriptors
        assertThat(result.dmaMissing()).as("frames whose transfer found the DMA ring out of descriptors").isPositive();
    }

    @Test
    void shouldGiveTheHandlerThePayloadsWritten()
    {
        final AtomicLong largest = new AtomicLong();
        final ReceiveWarmUp.Result result;
        try (RfmDevice device = RfmDevices.open("sim:real?node=2&size=1048576&dmaSlots=1024&dmaSlotSize=256&dma=auto"))
        {
            result = ReceiveWarmUp.warmUp(device, List.of(SENSOR), EventType.INTR1, WaitStrategy.parse("INLINE"),
                FRAMES, (frame, stamps) -> largest.accumulateAndGet(frame.buffer().getLong(frame.payloadOffset()),
                    Math::max),
                (buffer, channel, frame) ->
                {
                    buffer.putLong(0, frame + 1);
                    return Long.BYTES;
                });
        }

        assertThat(result.framesHandled()).isGreaterThanOrEqualTo(FRAMES);
        assertThat(largest.get()).isGreaterThanOrEqualTo(FRAMES);
    }

    private static void assertOverrunTaken(final ReceiveWarmUp.Result result)
    {
        assertThat(result.framesHandled()).isGreaterThanOrEqualTo(FRAMES);
        assertThat(result.boundedDrains()).as("drains that ended on their bound").isGreaterThanOrEqualTo(2);
        assertThat(result.fifoOverflows()).as("events the full FIFO had no room for").isPositive();
    }

    private static ReceiveWarmUp.Result warmUp(final String dma, final String wait, final FrameHandler handler)
    {
        try (RfmDevice device = RfmDevices.open("sim:real?node=2&size=1048576&dmaSlots=1024&dmaSlotSize=256&dma=" +
            dma))
        {
            return ReceiveWarmUp.warmUp(device, List.of(SENSOR), EventType.INTR1, WaitStrategy.parse(wait), FRAMES,
                handler);
        }
    }
}
