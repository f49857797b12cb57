package io.rfmrt.control.excite;

import io.rfmrt.control.AxisController;
import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.AxisPlant;
import io.rfmrt.control.ClosedLoopHarness;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.ControllerState;
import io.rfmrt.control.law.CascadedPidLaw;
import io.rfmrt.control.law.PdFeedForwardLaw;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.rfmrt.control.journal.ControlJournal.EXCITATION_DEADLINE_MISSES;
import static io.rfmrt.control.journal.ControlJournal.EXCITATION_DONE;
import static io.rfmrt.control.journal.ControlJournal.EXCITATION_FAULT;
import static io.rfmrt.control.journal.ControlJournal.EXCITATION_REFUSED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The excitation's safety rules, each alone: refused while the drive is not operation-enabled and while supervision is
 * off; stopped at once, for good, on a fault or trip; stopped with a fade on a deadline-miss burst (and not on misses
 * spread out); ended with a fade when the signal is over. In a closed loop: the injection lands where it says, and the
 * hand-back is bumpless (the command steps by no more than the law's own step plus the fade's), while with no fade
 * the same stop steps by the whole amplitude; after it the law commands exactly what it would alone.
 */
class ExcitationTest
{
    private static final double DT = 1e-3;

    private static Excitation excitation(final String spec)
    {
        return new Excitation(ExcitationSpec.parse(spec), ExcitationLimits.defaults(), DT);
    }

    @Test
    void shouldBeRefusedWhileTheDriveIsNotOperationEnabled()
    {
        final Excitation e = excitation("step:amp=0.1,seconds=0.1,start=0.01");
        for (long k = 100; k < 110; k++)
        {
            assertThat(e.cycle(k, false, true)).isZero();
            assertThat(e.active()).isFalse();
        }
        assertThat(e.cycle(110, false, true)).isEqualTo(EXCITATION_REFUSED);
        assertThat(e.ended()).isTrue();
        // enabled later: it does not start after all
        for (long k = 111; k < 400; k++)
        {
            assertThat(e.cycle(k, true, true)).isZero();
            assertThat(e.active()).isFalse();
        }
    }

    @Test
    void shouldBeRefusedWhileFollowingErrorSupervisionIsOff()
    {
        final Excitation e = excitation("chirp:f0=5,f1=50,amp=0.1,seconds=0.1,start=0");

        assertThat(e.cycle(7, true, false)).isEqualTo(EXCITATION_REFUSED);
        assertThat(e.active()).isFalse();
        assertThat(e.cycle(8, true, true)).isZero();
        assertThat(e.active()).isFalse();
    }

    @Test
    void shouldStopAtOnceAndForGoodOnAFaultOrTrip()
    {
        final Excitation e = excitation("step:amp=0.1,seconds=1,start=0");
        for (long k = 0; k < 50; k++)
        {
            assertThat(e.cycle(k, true, true)).isZero();
            assertThat(e.value()).isEqualTo(0.1);
        }
        assertThat(e.cycle(50, false, true)).as("a trip: the axis is not driven").isEqualTo(EXCITATION_FAULT);
        assertThat(e.active()).isFalse();
        assertThat(e.value()).isZero();
        // back to driven after the recovery: the loop rejoins its trajectory, the excitation does not resume
        for (long k = 51; k < 2000; k++)
        {
            assertThat(e.cycle(k, true, true)).isZero();
            assertThat(e.active()).isFalse();
        }
        final Excitation lag = excitation("step:amp=0.1,seconds=1,start=0");
        lag.cycle(0, true, true);
        assertThat(lag.cycle(1, true, false)).as("the following-error fault").isEqualTo(EXCITATION_FAULT);
    }

    @Test
    void shouldFadeOutOnADeadlineMissBurstButNotOnMissesSpreadOut()
    {
        final Excitation spread = excitation("step:amp=0.1,seconds=2,start=0,fade=10");
        for (long k = 0; k < 1000; k++)
        {
            assertThat(spread.cycle(k, true, true)).isZero();
            if (k % (Excitation.MISS_BURST_WINDOW_CYCLES / 2 + 1) == 0)
            {
                spread.deadlineMiss(k);
            }
        }
        assertThat(spread.running()).as("a miss every 51 cycles is no burst").isTrue();

        final Excitation burst = excitation("step:amp=0.1,seconds=2,start=0,fade=10");
        for (long k = 0; k < 100; k++)
        {
            burst.cycle(k, true, true);
        }
        burst.deadlineMiss(60);
        burst.deadlineMiss(80);
        assertThat(burst.cycle(100, true, true)).isZero();
        burst.deadlineMiss(100);
        assertThat(burst.cycle(101, true, true)).isEqualTo(EXCITATION_DEADLINE_MISSES);
        assertThat(burst.value()).as("the first step of the fade").isCloseTo(0.09, within(1e-12));
        long k = 102;
        while (!burst.ended())
        {
            assertThat(burst.cycle(k++, true, true)).isZero();
        }
        assertThat(k - 101).as("the fade's cycles, then ended").isEqualTo(11);
    }

    @Test
    void shouldEndWhenTheSignalIsOverWithAFadeToZero()
    {
        final Excitation e = excitation("step:amp=0.1,seconds=0.05,start=0.002,fade=20");
        long k = 0;
        int stops = 0;
        int reason = 0;
        long active = 0;
        double lastActive = Double.NaN;
        while (!e.ended())
        {
            final int r = e.cycle(k++, true, true);
            stops += r != 0 ? 1 : 0;
            reason = r != 0 ? r : reason;
            active += e.active() ? 1 : 0;
            lastActive = e.active() ? e.value() : lastActive;
        }
        assertThat(reason).isEqualTo(EXCITATION_DONE);
        assertThat(stops).as("reported once").isEqualTo(1);
        assertThat(active).as("50 cycles of signal, 20 of fade (19/20 .. 0 of the last value)").isEqualTo(50 + 20);
        assertThat(lastActive).as("the last journaled injection is exactly 0").isZero();
        assertThat(k).as("started 2 cycles after the first").isEqualTo(2 + 50 + 20 + 1);
    }

    @Test
    void shouldInjectAtEachPointWhereItSays()
    {
        final CascadedPidLaw law = new CascadedPidLaw(ControllerGains.standard());
        final Excitation torque = excitation("step:point=torque,amp=0.05,seconds=0.01,start=0");
        final ExcitationRecording t = new ExcitationRecording(torque, DT, 40);
        new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), law, DT, 1).excite(torque)
            .run((time, sp) -> sp.hold(0.0), 40, t);
        for (int i = 0; i < 10; i++)
        {
            assertThat(t.torqueNm()[i]).isEqualTo(t.before()[i] + 0.05);
        }

        final CascadedPidLaw pid = new CascadedPidLaw(ControllerGains.standard());
        final Excitation velocity = excitation("step:point=velocity,amp=2,seconds=0.01,start=0");
        final ControlCommand[] last = {null};
        final double[] reference = new double[2];
        new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), pid, DT, 1).excite(velocity)
            .run((time, sp) -> sp.hold(0.0), 1, (s, sp, c) -> reference[0] = c.velocityReferenceRadPerS());
        assertThat(reference[0]).as("at rest on target: the reference is the offset").isEqualTo(2.0);
        assertThat(velocity.before()).isZero();
        assertThat(new PdFeedForwardLaw().velocityReferenceOffset(1.0)).as("a law with no velocity reference says so")
            .isFalse();

        final Excitation position = excitation("step:point=position,amp=0.004,seconds=0.01,start=0");
        final ExcitationRecording p = new ExcitationRecording(position, DT, 5);
        new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), new CascadedPidLaw(), DT, 1)
            .excite(position).run((time, sp) -> sp.hold(0.5), 5, p);
        assertThat(p.setpointRad()[0]).isEqualTo(0.504);
        assertThat(p.before()[0]).isEqualTo(0.5);
    }

    @Test
    void shouldHandTheLoopBackBumplessly()
    {
        final ExcitationLimits limits = ExcitationLimits.defaults();
        for (final String point : new String[] {"torque", "velocity", "position"})
        {
            final double amp = "torque".equals(point) ? 0.1 : "velocity".equals(point) ? 5.0 : 0.004;
            final String spec = "step:point=" + point + ",amp=" + amp + ",seconds=0.3,start=0.2,fade=";
            final Handback faded = handback(new Excitation(ExcitationSpec.parse(spec + "20"), limits, DT));
            final Handback abrupt = handback(new Excitation(ExcitationSpec.parse(spec + "0"), limits, DT));

            // the injected part ramps by at most amp / 20 cycles; the command steps by no more than the law's own
            // step plus that
            assertThat(faded.largestInjectedStep).as(point).isLessThanOrEqualTo(amp / 20 + 1e-12);
            if ("torque".equals(point))
            {
                assertThat(faded.excessStepNm).as("the command's step beyond the law's own").isLessThanOrEqualTo(
                    amp / 20 + 1e-12);
            }
            // at every point the hand-back's largest torque step is well under the abrupt one's
            assertThat(faded.largestTorqueStepNm).as(point).isLessThan(0.5 * abrupt.largestTorqueStepNm);
            assertThat(faded.differingAfter).as(point + ": after the fade, exactly the law alone").isZero();
            assertThat(faded.comparedAfter).isGreaterThan(100);
            // the check can fail: the same stop with no fade steps by the whole amplitude
            assertThat(abrupt.largestInjectedStep).as(point).isCloseTo(amp, within(1e-12));
        }
    }

    /** What a hand-back did. */
    private static final class Handback
    {
        double largestInjectedStep;
        double excessStepNm;
        double largestTorqueStepNm;
        long differingAfter;
        long comparedAfter;
    }

    /**
     * Run a step excitation on the ideal axis at rest, then: the largest step of the injected value from the stop on,
     * the command's largest step there beyond the law's own (torque point), and how many cycles after the end differ
     * from the shipped controller run on the same inputs with no offset.
     */
    private static Handback handback(final Excitation e)
    {
        final CascadedPidLaw law = new CascadedPidLaw(ControllerGains.standard());
        final AxisController alone = new AxisController(ControllerGains.standard());
        final ControllerState before = new ControllerState();
        final ControlCommand expected = new ControlCommand();
        final Handback h = new Handback();
        final double[] previous = {Double.NaN, Double.NaN, Double.NaN};
        final boolean[] stopped = {false};
        new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), law, DT, 1).excite(e).run(
            (t, sp) -> sp.hold(0.2), 1000, (s, sp, c) ->
            {
                stopped[0] |= e.endReason() != 0;
                final double injected = e.active() ? e.value() : 0.0;
                final double own = e.active() && e.point() == InjectionPoint.TORQUE ? e.before() : c.torqueNm();
                if (stopped[0])
                {
                    h.largestInjectedStep = Math.max(h.largestInjectedStep, Math.abs(injected - previous[0]));
                    h.excessStepNm = Math.max(h.excessStepNm,
                        Math.abs(c.torqueNm() - previous[1]) - Math.abs(own - previous[2]));
                    h.largestTorqueStepNm = Math.max(h.largestTorqueStepNm, Math.abs(c.torqueNm() - previous[1]));
                }
                if (e.ended())
                {
                    alone.step(before, s, sp, before, expected);
                    h.comparedAfter++;
                    h.differingAfter += expected.sameBitsAs(c) ? 0 : 1;
                }
                before.set(law.journalState());
                previous[0] = injected;
                previous[1] = c.torqueNm();
                previous[2] = own;
            });
        assertThat(e.endReason()).isEqualTo(EXCITATION_DONE);
        return h;
    }
}
