package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

class DemoProfileTest
{
    @Test
    void shouldCruiseAtASteadySpeedForTenMinutesAfterTheLeadIn()
    {
        final DemoProfile cruise = DemoProfile.named(DemoProfile.CRUISE);
        final Setpoint sp = new Setpoint();
        cruise.setpoint(0.25, sp);
        assertThat(sp.velocity()).as("at rest in the lead-in").isZero();
        assertThat(sp.position()).isZero();
        // up to speed within 0.2 s of the lead-in (2 rad/s at 20 rad/s², jerk-limited)
        for (double t = DemoProfile.LEAD_IN_SECONDS + 0.2; t < DemoProfile.CRUISE_SECONDS; t += 7.3)
        {
            cruise.setpoint(t, sp);
            assertThat(sp.velocity()).as("%.1f s", t).isCloseTo(DemoProfile.CRUISE_V_RAD_PER_S, offset(1e-9));
            assertThat(sp.acceleration()).as("%.1f s", t).isCloseTo(0.0, offset(1e-9));
        }
        cruise.setpoint(100.0, sp);
        final double at100 = sp.position();
        cruise.setpoint(110.0, sp);
        assertThat(sp.position() - at100).isCloseTo(20.0, offset(1e-6));
        assertThat(cruise.vMaxRadPerS()).isEqualTo(DemoProfile.CRUISE_V_RAD_PER_S);
        assertThat(cruise.durationSeconds()).isGreaterThan(DemoProfile.CRUISE_SECONDS);
    }

    @Test
    void shouldKnowItsThreeNamesAndRefuseAnother()
    {
        for (final String name : new String[] {DemoProfile.STANDARD, DemoProfile.FAST, DemoProfile.CRUISE})
        {
            assertThat(DemoProfile.isKnown(name)).isTrue();
            assertThat(DemoProfile.named(name).name()).isEqualTo(name);
        }
        assertThat(DemoProfile.isKnown("wild")).isFalse();
        assertThat(DemoProfile.isKnown(null)).isFalse();
        assertThatThrownBy(() -> DemoProfile.named("wild"))
            .hasMessage("profile 'wild' is not standard, fast or cruise");
    }
}
