package io.rfmrt.control.law;

import io.rfmrt.control.AxisController;
import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.AxisPlant;
import io.rfmrt.control.ClosedLoopHarness;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.ControllerState;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.RealisticAxisParameters;
import io.rfmrt.control.RealisticAxisPlant;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;
import io.rfmrt.runtime.ZeroAllocation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Laws in the closed-loop harness (a simulated axis, stepped time, no processes): the shipped cascaded PID as a law
 * commands what {@link AxisController} does, bit for bit; the example PD law with feed-forward tracks the demo
 * profile too, with other commands; laws are found by name and class, with one line for a bad one; neither law nor
 * the harness allocates once warm.
 */
class ControlLawTest
{
    private static final double PERIOD = 1e-3;

    @Test
    void shouldCommandWhatTheAxisControllerDoesBitForBit()
    {
        final ControlLaw law = ControlLaws.create(null, getClass().getClassLoader());
        law.configure(Map.of(), PERIOD);
        final DemoProfile profile = DemoProfile.standard();
        final AxisController reference = new AxisController(ControllerGains.standard());
        final ControllerState state = new ControllerState();
        final ControlCommand expected = new ControlCommand();
        final long[] differing = {0, 0};
        new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), law, PERIOD, 0)
            .run(profile::setpoint, 3000, (sample, setpoint, command) ->
            {
                reference.step(state, sample, setpoint, state, expected);
                differing[0] += Double.doubleToRawLongBits(command.torqueNm()) ==
                    Double.doubleToRawLongBits(expected.torqueNm()) ? 0 : 1;
                differing[1] += command.torqueNm() != 0.0 ? 1 : 0;
            });
        assertThat(differing[0]).isZero();
        assertThat(differing[1]).as("torque commanded").isGreaterThan(2000);
        assertThat(law.journalState()).isEqualTo(state.integratorNm());
    }

    @Test
    void shouldTrackTheDemoProfileWithEitherLaw()
    {
        final DemoProfile profile = DemoProfile.standard();
        final long cycles = Math.round(profile.durationSeconds() / PERIOD);
        final ControlLaw pid = new CascadedPidLaw();
        pid.configure(Map.of(), PERIOD);
        final ControlLaw pd = new PdFeedForwardLaw();
        pd.configure(Map.of(), PERIOD);
        final ClosedLoopHarness a = new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), pid, PERIOD, 0)
            .run(profile::setpoint, cycles);
        final ClosedLoopHarness b = new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), pd, PERIOD, 0)
            .run(profile::setpoint, cycles);

        assertThat(a.cycles()).isEqualTo(b.cycles()).isEqualTo(cycles);
        assertThat(a.rmsErrorRad()).isLessThan(1e-3);
        assertThat(b.rmsErrorRad()).isLessThan(1e-3);
        assertThat(b.maxErrorRad()).isLessThan(5e-3);
        assertThat(b.peakTorqueNm()).isPositive().isLessThanOrEqualTo(pd.torqueLimitNm());
        // a different law: its commands are not the PID's
        assertThat(b.rmsErrorRad()).isNotEqualTo(a.rmsErrorRad());
        // both end where the profile does
        final Setpoint end = new Setpoint();
        profile.setpoint(profile.durationSeconds(), end);
        assertThat(a.axis().position()).isCloseTo(end.position(), within(1e-3));
        assertThat(b.axis().position()).isCloseTo(end.position(), within(1e-3));
    }

    @Test
    void shouldHoldTheRealisticAxisWithThePdLawAndItsFeedForward()
    {
        final ControlLaw pd = new PdFeedForwardLaw();
        pd.configure(Map.of("kpNmPerRad", 9.0, "kdNmSPerRad", 0.075, "inertiaKgM2", 3e-4, "coulombNm", 8e-3), PERIOD);
        final DemoProfile profile = DemoProfile.standard();
        final ClosedLoopHarness loop = new ClosedLoopHarness(
            new RealisticAxisPlant(RealisticAxisParameters.standard()), pd, PERIOD, 1)
            .run(profile::setpoint, Math.round(profile.durationSeconds() / PERIOD));
        assertThat(loop.rmsErrorRad()).isLessThan(5e-3);
    }

    @Test
    void shouldActivateAgainWithNoHistory()
    {
        final CascadedPidLaw law = new CascadedPidLaw();
        law.configure(Map.of(), PERIOD);
        final ClosedLoopHarness loop = new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), law, PERIOD, 0);
        // held against an offset: the integrator builds up
        loop.run((t, out) -> out.hold(0.01), 200);
        assertThat(law.journalState()).isNotZero();
        loop.activate().run((t, out) -> out.hold(0.01), 1, (sample, setpoint, command) ->
            assertThat(command.torqueNm()).isNotZero());
        final CascadedPidLaw fresh = new CascadedPidLaw();
        fresh.configure(Map.of(), PERIOD);
        fresh.activate(new SensorSample());
        final SensorSample s = new SensorSample().set(0, 0, loop.axis().measuredPosition(), 0);
        assertThat(fresh.journalState()).isZero();
        law.restoreState(0.0);
        assertThat(law.journalState()).isZero();
        final ControlCommand c = new ControlCommand();
        fresh.update(s, new Setpoint().hold(0.01), 0, PERIOD, c);
        assertThat(c.torqueNm()).isFinite();
    }

    @Test
    void shouldTakeTheGainsItIsGivenAndNameEveryBadOne()
    {
        final CascadedPidLaw pid = new CascadedPidLaw();
        pid.configure(Map.of("positionGainPerS", 70.0), 0.5e-3);
        assertThat(pid.gains().positionGainPerS()).isEqualTo(70.0);
        assertThat(pid.gains().periodSeconds()).isEqualTo(0.5e-3);
        assertThatThrownBy(() -> new CascadedPidLaw().configure(Map.of("nonsense", 1), PERIOD))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nonsense");

        assertThatThrownBy(() -> new PdFeedForwardLaw().configure(Map.of("kp", 1.0, "kdNmSPerRad", "x"), PERIOD))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("gains.kp: unknown")
            .hasMessageContaining("gains.kdNmSPerRad: 'x' is not a non-negative number");
        assertThatThrownBy(() -> new PdFeedForwardLaw().configure(Map.of("torqueLimitNm", 0), PERIOD))
            .hasMessage("gains.torqueLimitNm: '0' is not a positive number");
    }

    @Test
    void shouldFindALawByNameOrClassAndSayWhatIsWrongWithABadOne()
    {
        final ClassLoader loader = getClass().getClassLoader();
        assertThat(ControlLaws.create("cascaded-pid", loader)).isInstanceOf(CascadedPidLaw.class);
        final ControlLaw pd = ControlLaws.create(PdFeedForwardLaw.class.getName(), loader);
        assertThat(pd).isInstanceOf(PdFeedForwardLaw.class);
        assertThat(ControlLaws.nameOf(pd)).isEqualTo(PdFeedForwardLaw.class.getName());
        assertThat(ControlLaws.nameOf(new CascadedPidLaw())).isEqualTo("cascaded-pid");
        assertThatThrownBy(() -> ControlLaws.create("com.acme.Missing", loader))
            .hasMessageStartingWith("law 'com.acme.Missing': no such class on the class path");
        assertThatThrownBy(() -> ControlLaws.create(String.class.getName(), loader))
            .hasMessage("law 'java.lang.String' does not implement io.rfmrt.control.ControlLaw");
        assertThatThrownBy(() -> ControlLaws.create(NoDefault.class.getName(), loader))
            .hasMessageEndingWith("has no public no-argument constructor");
        assertThatThrownBy(() -> ControlLaws.create(Throwing.class.getName(), loader))
            .hasMessageContaining("its constructor threw java.lang.IllegalStateException: no");
    }

    @Test
    void shouldNotAllocateInEitherLawOnceWarm()
    {
        assertThat(ZeroAllocation.supported()).isTrue();
        final List<ClosedLoopHarness> loops = new ArrayList<>();
        final DemoProfile profile = DemoProfile.standard();
        for (final ControlLaw law : List.of(new CascadedPidLaw(), new PdFeedForwardLaw()))
        {
            law.configure(Map.of(), PERIOD);
            loops.add(new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), law, PERIOD, 1));
        }
        final ClosedLoopHarness.SetpointSource source = profile::setpointRepeating;
        final ZeroAllocation.Result r = ZeroAllocation.measure((first, count) ->
        {
            loops.get(0).run(source, count);
            loops.get(1).run(source, count);
        }, 20_000, 50_000, 5);
        assertThat(loops.get(1).cycles()).isGreaterThan(50_000);
        assertThat(r.lastWindowBytes()).as(r.toString()).isZero();
    }

    /** Not a law that can be made. */
    public static final class NoDefault extends Base
    {
        /**
         * @param x anything.
         */
        public NoDefault(final int x)
        {
        }
    }

    /** A law whose constructor throws. */
    public static final class Throwing extends Base
    {
        /** Throws. */
        public Throwing()
        {
            throw new IllegalStateException("no");
        }
    }

    /** Does nothing. */
    public abstract static class Base implements ControlLaw
    {
        @Override
        public void configure(final Map<String, Object> settings, final double periodSeconds)
        {
        }

        @Override
        public void activate(final SensorSample sensor)
        {
        }

        @Override
        public void update(final SensorSample sensor, final Setpoint setpoint, final double timeSeconds,
            final double periodSeconds, final ControlCommand command)
        {
        }

        @Override
        public void deactivate()
        {
        }
    }
}
