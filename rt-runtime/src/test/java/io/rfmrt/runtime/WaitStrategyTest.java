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
    void shouldNameBadValues()
    {
        assertThatThrownBy(() -> WaitStrategy.parse("SLEEPY"))
            .hasMessage("wait strategy 'SLEEPY' is not BLOCKING, SPIN_THEN_BLOCK(ns), BUSY_SPIN, POLLING(ns) or INLINE");
        assertThatThrownBy(() -> WaitStrategy.parse("BLOCKING(5)"))
            .hasMessage("wait strategy 'BLOCKING(5)': BLOCKING takes no argument");
        assertThatThrownBy(() -> WaitStrategy.parse("POLLING(10)"))
            .hasMessage("wait strategy POLLING(10): period must be 1000 ns .. 1 s");
    }
}
