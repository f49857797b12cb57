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

    @Test
    void shouldParseEachIdleInAnyCaseWithItsTimeInNanosOrAsADuration()
    {
        assertThat(ReceiveIdle.parse("block")).isEqualTo(ReceiveIdle.block());
        assertThat(ReceiveIdle.parse("SPIN")).isEqualTo(ReceiveIdle.spin());
        assertThat(ReceiveIdle.parse("spin_then_block")).isEqualTo(ReceiveIdle.spinThenBlock(20_000));
        assertThat(ReceiveIdle.parse("spin-then-block(5_000)")).isEqualTo(ReceiveIdle.spinThenBlock(5000));
        assertThat(ReceiveIdle.parse("spin-then-block( 50us )")).isEqualTo(ReceiveIdle.spinThenBlock(50_000));
        assertThat(ReceiveIdle.parse("period(1ms)")).isEqualTo(ReceiveIdle.period(1_000_000));
        assertThat(ReceiveIdle.parse("period")).hasToString("period(1000000)");
        assertThat(WaitStrategy.parse("SPIN_THEN_BLOCK(20us)")).as("the shorthand takes a duration too")
            .isEqualTo(WaitStrategy.spinThenBlock(20_000));
        assertThatThrownBy(() -> ReceiveIdle.parse("period(1h)"))
            .hasMessage("'period(1h)': period must be 1000 ns .. 1 s");
        assertThatThrownBy(() -> ReceiveIdle.parse("spin(5)")).hasMessage("'spin(5)': spin takes no time");
    }

    @Test
    void shouldPairEachModeOnlyWithTheIdlesItTakes()
    {
        assertThat(ReceiveMode.parse(" Polling ")).isEqualTo(ReceiveMode.POLLING);
        assertThat(ReceiveMode.INTERRUPT.takes(ReceiveIdle.spin())).isTrue();
        assertThat(ReceiveMode.INTERRUPT.takes(ReceiveIdle.period(1000))).isFalse();
        assertThat(ReceiveMode.INLINE.takes(ReceiveIdle.block())).isTrue();
        assertThat(ReceiveMode.INLINE.takes(ReceiveIdle.spinThenBlock(1000))).isFalse();
        assertThat(ReceiveMode.POLLING.takes(ReceiveIdle.block())).isFalse();
        for (final ReceiveMode mode : ReceiveMode.values())
        {
            assertThat(mode.takes(mode.defaultIdle())).as(mode.toString()).isTrue();
        }
        assertThat(new WaitStrategy(ReceiveMode.INLINE, ReceiveIdle.block())).isEqualTo(WaitStrategy.inline());
        assertThatThrownBy(() -> new WaitStrategy(ReceiveMode.INLINE, ReceiveIdle.spin()))
            .hasMessage("receive.idle 'spin' is not a wait of receive.mode inline (it takes block)");
        assertThatThrownBy(() -> ReceiveMode.parse("fast")).hasMessage("'fast' is not interrupt, inline or polling");
    }

    @Test
    void shouldSpellEveryPairAsTheShorthandThatReadsBackToIt()
    {
        for (final String text : new String[] {"BLOCKING", "SPIN_THEN_BLOCK(5000)", "BUSY_SPIN", "INLINE",
            "POLLING(100000)"})
        {
            final WaitStrategy wait = WaitStrategy.parse(text);
            assertThat(wait).hasToString(text);
            assertThat(new WaitStrategy(wait.mode(), wait.idle())).isEqualTo(wait);
        }
        assertThat(WaitStrategy.busySpin().kind()).isEqualTo(WaitStrategy.Kind.BUSY_SPIN);
        assertThat(WaitStrategy.polling(5000).periodNanos()).isEqualTo(5000);
        assertThat(WaitStrategy.spinThenBlock(7000).spinNanos()).isEqualTo(7000);
        assertThat(WaitStrategy.inline().spinNanos()).isZero();
    }
}
