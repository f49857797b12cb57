package com.example;

import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.AxisPlant;
import io.rfmrt.control.ClosedLoopHarness;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.Setpoint;
import io.rfmrt.runtime.ZeroAllocation;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The law in closed loop with a simulated axis, in this JVM, no processes and no network (ClosedLoopHarness): it
 * tracks the demo profile, ends where the profile does, rejects bad settings in one line, and allocates nothing.
 */
class PdLawTest
{
    private static final double PERIOD = 1e-3;

    @Test
    void shouldTrackTheDemoProfileOnTheSimulatedAxis()
    {
        final PdLaw law = new PdLaw();
        law.configure(Map.of("positionGain", 120.0), PERIOD);
        final DemoProfile profile = DemoProfile.standard();
        final ClosedLoopHarness loop = new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), law, PERIOD, 1)
            .run(profile::setpoint, Math.round(profile.durationSeconds() / PERIOD));

        assertThat(loop.rmsErrorRad()).isLessThan(1e-3);
        assertThat(loop.peakTorqueNm()).isPositive().isLessThanOrEqualTo(0.5);
        final Setpoint end = new Setpoint();
        profile.setpoint(profile.durationSeconds(), end);
        assertThat(loop.axis().position()).isCloseTo(end.position(), within(1e-3));
    }

    @Test
    void shouldNameEveryBadSetting()
    {
        assertThatThrownBy(() -> new PdLaw().configure(Map.of("kp", 1.0), PERIOD))
            .hasMessage("gains.kp: unknown (positionGain, velocityGain, inertia, torqueLimit)");
        assertThatThrownBy(() -> new PdLaw().configure(Map.of("inertia", -1.0), PERIOD))
            .hasMessage("gains.inertia: '-1.0' is not a positive number");
    }

    @Test
    void shouldNotAllocateOnceWarm()
    {
        final PdLaw law = new PdLaw();
        law.configure(Map.of(), PERIOD);
        final ClosedLoopHarness loop = new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), law, PERIOD, 0);
        final DemoProfile profile = DemoProfile.standard();
        final ClosedLoopHarness.SetpointSource source = profile::setpointRepeating;
        final ZeroAllocation.Result r = ZeroAllocation.measure((first, count) -> loop.run(source, count),
            20_000, 50_000, 5);
        assertThat(r.lastWindowBytes()).as(r.toString()).isZero();
    }
}
