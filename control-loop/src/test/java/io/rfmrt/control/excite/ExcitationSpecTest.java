package io.rfmrt.control.excite;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The excitation spec: read with its defaults, written back canonically, and every bad kind, key or value named in
 * one line; what depends on the rate and the limits checked apart.
 */
class ExcitationSpecTest
{
    @Test
    void shouldReadAChirpWithItsDefaults()
    {
        final ExcitationSpec spec = ExcitationSpec.parse("chirp:point=torque,f0=5,f1=400,amp=0.1,seconds=4,start=1");

        assertThat(spec.kind()).isEqualTo(ExcitationSpec.CHIRP);
        assertThat(spec.point()).isEqualTo(InjectionPoint.TORQUE);
        assertThat(spec.f0Hz()).isEqualTo(5.0);
        assertThat(spec.f1Hz()).isEqualTo(400.0);
        assertThat(spec.logarithmic()).isTrue();
        assertThat(spec.fadeMs()).isEqualTo(ExcitationSpec.FADE_DEFAULT_MS);
        assertThat(ExcitationSpec.parse(spec.toString())).isEqualTo(spec);
        assertThat(spec.signal(1.0 / 4000)).isInstanceOf(ChirpSignal.class);
        assertThat(spec.signal(1.0 / 4000).cycles()).isEqualTo(16_000);
    }

    @Test
    void shouldReadAStepAndAPrbs()
    {
        final ExcitationSpec step = ExcitationSpec.parse("step:point=position,amp=0.004,seconds=0.5,start=0");
        final ExcitationSpec prbs = ExcitationSpec.parse("prbs:point=velocity,amp=2,bit=2,seed=7");

        assertThat(step.point()).isEqualTo(InjectionPoint.POSITION);
        assertThat(step.startSeconds()).isZero();
        assertThat(step.signal(1e-3)).isInstanceOf(StepSignal.class);
        assertThat(prbs.bitCycles()).isEqualTo(2);
        assertThat(prbs.seed()).isEqualTo(7);
        assertThat(prbs.seconds()).isEqualTo(ExcitationSpec.SECONDS_DEFAULT);
        assertThat(ExcitationSpec.parse(prbs.toString())).isEqualTo(prbs);
    }

    @Test
    void shouldNameTheBadKeyOrValueInOneLine()
    {
        bad("sine:amp=1", "excite: kind 'sine' is not step, chirp or prbs");
        bad("chirp:f0=5,f1=400,amp=0.1,f2=3", "excite: unknown key 'f2' for chirp (keys: point, amp, seconds, " +
            "start, fade, f0, f1, sweep)");
        bad("step:amp=0.1,bit=2", "excite: unknown key 'bit' for step");
        bad("chirp:f0=5,f1=400,amp=abc", "excite: amp 'abc' is not a number");
        bad("chirp:f0=5,f1=400,amp=-1", "excite: amp -1 must be > 0");
        bad("chirp:f0=5,amp=0.1", "excite: chirp needs f0= and f1=");
        bad("chirp:f0=5,f1=400", "excite: chirp needs amp=");
        bad("chirp:f0=5,f1=400,amp=0.1,sweep=cubic", "excite: sweep 'cubic' is not log or lin");
        bad("step:point=current,amp=0.1", "excite: point 'current' is not torque, velocity or position");
        bad("prbs:amp=0.1,bit=1.5", "excite: bit 1.5 is not a whole number of cycles 1..10000");
        bad("prbs:amp=0.1,seed=x", "excite: seed 'x' is not a whole number");
        bad("step:amp=0.1,amp=0.2", "excite: key 'amp' given twice");
        bad("step:amp", "excite: 'amp' is not key=value");
        bad("step:amp=NaN", "excite: amp 'NaN' is not a number");
        bad("step:amp=0.1,start=-1", "excite: start -1 is not 0..3600.0");
    }

    @Test
    void shouldCheckTheLimitsAndTheRateApart()
    {
        final ExcitationLimits limits = ExcitationLimits.defaults();

        assertThat(ExcitationSpec.parse("chirp:f0=5,f1=400,amp=0.1").problemFor(1.0 / 4000, limits)).isNull();
        assertThat(ExcitationSpec.parse("chirp:f0=5,f1=400,amp=0.1").problemFor(1.0 / 500, limits))
            .isEqualTo("excite: f0 5.0 and f1 400.0 must be below half the loop rate, 250.0 Hz");
        assertThat(ExcitationSpec.parse("chirp:f0=5,f1=400,amp=0.3").problemFor(1.0 / 4000, limits))
            .isEqualTo("excite: amp 0.3 is above the torque limit 0.25 N·m");
        assertThat(ExcitationSpec.parse("chirp:f0=5,f1=400,amp=0.3").problemFor(1.0 / 4000,
            new ExcitationLimits(1.0, 20, 0.1, 0.2))).isEqualTo("excite: amp 0.3 is above the drive's peak torque " +
            "0.2 N·m");
        assertThat(ExcitationSpec.parse("step:point=velocity,amp=25").problemFor(1e-3, limits))
            .isEqualTo("excite: amp 25.0 is above the velocity limit 20.0 rad/s");
        assertThat(ExcitationSpec.parse("step:point=position,amp=0.2").problemFor(1e-3, limits))
            .isEqualTo("excite: amp 0.2 is above the position limit 0.1 rad");
        assertThatThrownBy(() -> new Excitation(ExcitationSpec.parse("step:point=position,amp=0.2"), limits, 1e-3))
            .hasMessage("excite: amp 0.2 is above the position limit 0.1 rad");
    }

    private static void bad(final String spec, final String message)
    {
        assertThatThrownBy(() -> ExcitationSpec.parse(spec)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith(message).hasMessageNotContaining("\n");
    }
}
