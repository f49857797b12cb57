package io.rfmrt.runtime;

import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.channel.ChannelSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sizing rule of docs/runtime.md ("Sizing the rings"): the ring that holds a node's frames through a stall covers
 * 100 ms at the expected input rate, and the one-line warning when it does not.
 */
class RingCoverageTest
{
    private static final List<ChannelSpec> SENSOR =
        List.of(new ChannelSpec("sensor", 1, 0x10000, 16, 128, EventType.INTR1, 2));

    @Test
    void shouldSizeARingForAHundredMillisecondsRoundedUpToAPowerOfTwo()
    {
        assertThat(ReceivePath.slotsFor(1000, ReceivePath.STALL_COVER_DEFAULT_NS)).isEqualTo(128);
        assertThat(ReceivePath.slotsFor(10_000, ReceivePath.STALL_COVER_DEFAULT_NS)).isEqualTo(1024);
        assertThat(ReceivePath.slotsFor(1024, 1_000_000_000L)).isEqualTo(1024);
        assertThat(ReceivePath.slotsFor(1025, 1_000_000_000L)).isEqualTo(2048);
        assertThat(ReceivePath.slotsFor(1, 1_000_000L)).as("never fewer than two").isEqualTo(2);
    }

    @Test
    void shouldWarnAboutTheDmaRingInAutoModeAndTheChannelRingWhenFindingByNumber()
    {
        assertThat(ReceivePath.ringCoverageWarning(DmaMode.AUTO, 64, SENSOR, WaitStrategy.blocking(), 10_000))
            .isEqualTo("the DMA ring of 64 slots holds 6.4 ms at receive.rateHz 10000, less than a 100 ms stall: " +
                "give the device URI dmaSlots=1024 or more");
        assertThat(ReceivePath.ringCoverageWarning(DmaMode.AUTO, 1024, SENSOR, WaitStrategy.blocking(), 10_000))
            .isNull();
        assertThat(ReceivePath.ringCoverageWarning(DmaMode.AUTO, 128, SENSOR, WaitStrategy.blocking(), 1000))
            .as("128 slots: 128 ms at 1 kHz").isNull();
        assertThat(ReceivePath.ringCoverageWarning(DmaMode.ON_DEMAND, 4096, SENSOR, WaitStrategy.blocking(), 1000))
            .isEqualTo("channel 'sensor' of 16 slots holds 16.0 ms at receive.rateHz 1000, less than a 100 ms " +
                "stall: give it slots: 128 or more in the layout");
        assertThat(ReceivePath.ringCoverageWarning(DmaMode.AUTO, 4096, SENSOR, WaitStrategy.parse("POLLING(1000)"),
            1000)).as("polling reads the channel ring").startsWith("channel 'sensor' of 16 slots");
        assertThat(ReceivePath.ringCoverageWarning(DmaMode.ON_DEMAND, 64,
            List.of(new ChannelSpec("axis", 1, 0, 2048, 128, EventType.INTR1, 2)), WaitStrategy.blocking(), 10_000))
            .isNull();
    }
}
