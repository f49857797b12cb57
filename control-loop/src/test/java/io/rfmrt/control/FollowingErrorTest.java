package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FollowingErrorTest
{
    private static final FollowingError.Limits LIMITS = new FollowingError.Limits(5e-3, 10e-3, 0.6, 10);

    @Test
    void shouldScaleTheLimitWithTheCommandedSpeedUpToTheTopSpeed()
    {
        final FollowingError f = new FollowingError(LIMITS);
        assertThat(f.limitAt(0)).isEqualTo(5e-3);
        assertThat(f.limitAt(-0.3)).isCloseTo(7.5e-3, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(f.limitAt(0.6)).isEqualTo(10e-3);
        assertThat(f.limitAt(5.0)).isEqualTo(10e-3);
    }

    @Test
    void shouldFaultOnlyWhenTheLagHasSpentTheFilterTimeMoreAboveTheLimitThanWithinIt()
    {
        final FollowingError f = new FollowingError(LIMITS);
        for (int i = 0; i < 9; i++)
        {
            assertThat(f.check(6e-3, 0)).isFalse();
        }
        // cycles back within the limit take the count down again (to 0 at most)
        for (int i = 0; i < 20; i++)
        {
            assertThat(f.check(4e-3, 0)).isFalse();
        }
        for (int i = 0; i < 9; i++)
        {
            assertThat(f.check(-6e-3, 0)).isFalse();
        }
        assertThat(f.faulted()).isFalse();
        assertThat(f.check(-6e-3, 0)).isTrue();
        assertThat(f.faulted()).isTrue();
        assertThat(f.lagAtFault()).isEqualTo(6e-3);
        assertThat(f.limitAtFault()).isEqualTo(5e-3);
    }

    @Test
    void shouldFaultALoopRingingThroughZeroThatSpendsMostOfItsTimeAboveTheLimit()
    {
        // ±20 mrad at 100 Hz sampled at 1 kHz: above 5 mrad in most samples, through zero every 5 cycles
        final FollowingError f = new FollowingError(LIMITS);
        int faultedAt = -1;
        for (int k = 0; k < 200 && faultedAt < 0; k++)
        {
            if (f.check(20e-3 * Math.sin(2 * Math.PI * k / 10.0), 0))
            {
                faultedAt = k;
            }
        }
        assertThat(faultedAt).isBetween(10, 40);

        // a noise-like lag above the limit one cycle in three never faults
        final FollowingError g = new FollowingError(LIMITS);
        for (int k = 0; k < 10_000; k++)
        {
            assertThat(g.check(k % 3 == 0 ? 6e-3 : 1e-3, 0)).isFalse();
        }
    }

    @Test
    void shouldNotFaultAMovingAxisWhoseLagIsWithinTheSpeedScaledLimit()
    {
        final FollowingError f = new FollowingError(LIMITS);
        for (int i = 0; i < 100; i++)
        {
            assertThat(f.check(9e-3, 0.6)).isFalse();
        }
        assertThat(f.faulted()).isFalse();
        assertThat(f.peakLag()).isEqualTo(9e-3);
    }

    @Test
    void shouldLatchUntilResetAndReportTheFaultOnce()
    {
        final FollowingError f = new FollowingError(new FollowingError.Limits(1e-3, 1e-3, 1, 1));
        assertThat(f.check(2e-3, 0)).isTrue();
        assertThat(f.check(0, 0)).isFalse();
        assertThat(f.check(2e-3, 0)).isFalse();
        assertThat(f.faulted()).isTrue();
        f.reset();
        assertThat(f.faulted()).isFalse();
        assertThat(f.check(0, 0)).isFalse();
        assertThat(f.check(2e-3, 0)).isTrue();
    }

    @Test
    void shouldCountALagThatIsNotANumberAsOverTheLimit()
    {
        final FollowingError f = new FollowingError(new FollowingError.Limits(1e-3, 1e-3, 1, 2));
        assertThat(f.check(Double.NaN, 0)).isFalse();
        assertThat(f.check(Double.NaN, 0)).isTrue();
    }

    @Test
    void shouldRefuseLimitsThatCannotWork()
    {
        assertThatThrownBy(() -> new FollowingError.Limits(0, 1e-3, 1, 1)).hasMessageContaining("at rest > 0");
        assertThatThrownBy(() -> new FollowingError.Limits(2e-3, 1e-3, 1, 1)).hasMessageContaining("at speed >=");
        assertThatThrownBy(() -> new FollowingError.Limits(1e-3, 1e-3, 1, 0)).hasMessageContaining("filter >= 1");
    }
}
