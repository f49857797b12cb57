package io.rfmrt.runtime;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WaitStrategyTest
{
    @Test
    void shouldParseEveryForm()
    {
        assertThat(WaitStrategy.parse("blocking")).isEqualTo(WaitStrategy.blocking());
        assertThat(WaitStrategy.parse("BUSY-SPIN")).isEqualTo(WaitStrategy.busySpin());
        assertThat(WaitStrategy.parse("SPIN_THEN_BLOCK")).isEqualTo(WaitStrategy.spinThenBlock(20_000));
        assertThat(WaitStrategy.parse("SPIN_THEN_BLOCK(1_000)")).isEqualTo(WaitStrategy.spinThenBlock(1000));
        assertThat(WaitStrategy.parse("POLLING(100000)")).isEqualTo(WaitStrategy.polling(100_000));
        assertThat(WaitStrategy.parse("POLLING").toString()).isEqualTo("POLLING(1000000)");
    }

    @Test
    void shouldSayWhichThreadsEachSpellingRuns()
    {
        for (final String consumerWait : new String[] {"BLOCKING", "SPIN_THEN_BLOCK(5000)", "BUSY_SPIN"})
        {
            final ReceiveMode mode = WaitStrategy.parse(consumerWait).mode();
            assertThat(mode).as(consumerWait).isEqualTo(ReceiveMode.INTERRUPT);
            assertThat(mode.interrupts()).isTrue();
            assertThat(mode.handsOff()).isTrue();
            assertThat(mode.findsByNumber()).isFalse();
        }
        final ReceiveMode inline = WaitStrategy.parse("INLINE").mode();
        assertThat(inline).isEqualTo(ReceiveMode.INLINE);
        assertThat(inline.interrupts()).isTrue();
        assertThat(inline.handsOff()).as("the ISR-wake thread runs the handler").isFalse();
        assertThat(inline.findsByNumber()).isFalse();
        final ReceiveMode polling = WaitStrategy.parse("POLLING(100000)").mode();
        assertThat(polling).isEqualTo(ReceiveMode.POLLING);
        assertThat(polling.interrupts()).isFalse();
        assertThat(polling.handsOff()).isFalse();
        assertThat(polling.findsByNumber()).isTrue();
    }

    @Test
    void shouldNameBadValues()
    {
        assertThatThrownBy(() -> WaitStrategy.parse("SLEEPY"))
            .hasMessage("wait strategy 'SLEEPY' is not BLOCKING, SPIN_THEN_BLOCK(ns), BUSY_SPIN, POLLING(ns) or " +
                "INLINE");
        assertThatThrownBy(() -> WaitStrategy.parse("BLOCKING(5)"))
            .hasMessage("wait strategy 'BLOCKING(5)': BLOCKING takes no argument");
        assertThatThrownBy(() -> WaitStrategy.parse("POLLING(10)"))
            .hasMessage("wait strategy POLLING(10): period must be 1000 ns .. 1 s");
    }
}
