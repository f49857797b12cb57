package io.rfmrt.control.excite;

/**
 * A swept sine from f0 to f1 over the signal's duration, starting at phase 0 (value 0, so it enters the loop without
 * a step):
 * <pre>
 *   linear:       f(t) = f0 + (f1 − f0)·t/T          φ(t) = 2π·(f0·t + (f1 − f0)·t²/(2T))
 *   logarithmic:  f(t) = f0·(f1/f0)^(t/T)            φ(t) = 2π·f0·T/ln(f1/f0)·((f1/f0)^(t/T) − 1)
 *   value(n)    = A·sin(φ(n·dt))
 * </pre>
 * A logarithmic sweep spends equal time per octave (equal coherence per decade on a Bode plot); a linear one equal
 * time per hertz. f1 may be below f0 (a downward sweep).
 * <p>
 * Threading: immutable.
 */
public final class ChirpSignal implements ExcitationSignal
{
    private final double amplitude;
    private final double f0;
    private final double f1;
    private final boolean logarithmic;
    private final long cycles;
    private final double dt;
    private final double durationSeconds;
    private final double rate;

    /**
     * @param amplitude     A, in the injection point's unit (&gt; 0).
     * @param f0Hz          the start frequency, Hz (&gt; 0).
     * @param f1Hz          the end frequency, Hz (&gt; 0, ≠ f0 for a logarithmic sweep).
     * @param logarithmic   a logarithmic sweep (else linear).
     * @param cycles        how many cycles it lasts (≥ 2).
     * @param periodSeconds the loop period dt, s.
     */
    public ChirpSignal(final double amplitude, final double f0Hz, final double f1Hz, final boolean logarithmic,
        final long cycles, final double periodSeconds)
    {
        if (!(amplitude > 0) || !Double.isFinite(amplitude) || !(f0Hz > 0) || !(f1Hz > 0) || cycles < 2 ||
            !(periodSeconds > 0) || logarithmic && f0Hz == f1Hz)
        {
            throw new IllegalArgumentException("a chirp needs amplitude " + amplitude + " > 0, f0 " + f0Hz + " and f1 " +
                f1Hz + " > 0 (different for a logarithmic sweep), >= 2 cycles (" + cycles + "), a period > 0");
        }
        this.amplitude = amplitude;
        this.f0 = f0Hz;
        this.f1 = f1Hz;
        this.logarithmic = logarithmic;
        this.cycles = cycles;
        this.dt = periodSeconds;
        this.durationSeconds = cycles * periodSeconds;
        this.rate = logarithmic ? Math.log(f1Hz / f0Hz) / durationSeconds : (f1Hz - f0Hz) / durationSeconds;
    }

    @Override
    public int kind()
    {
        return KIND_CHIRP;
    }

    @Override
    public double amplitude()
    {
        return amplitude;
    }

    @Override
    public long cycles()
    {
        return cycles;
    }

    /**
     * @param tSeconds time since the sweep began, s.
     * @return the phase there, rad.
     */
    public double phase(final double tSeconds)
    {
        return logarithmic ? 2.0 * Math.PI * f0 * Math.expm1(rate * tSeconds) / rate :
            2.0 * Math.PI * (f0 * tSeconds + 0.5 * rate * tSeconds * tSeconds);
    }

    @Override
    public double value(final long n)
    {
        return n >= 0 && n < cycles ? amplitude * Math.sin(phase(n * dt)) : 0.0;
    }

    @Override
    public double frequencyHz(final long n)
    {
        if (n < 0 || n >= cycles)
        {
            return 0.0;
        }
        final double t = n * dt;
        return logarithmic ? f0 * Math.exp(rate * t) : f0 + rate * t;
    }

    /**
     * @return f0, Hz.
     */
    public double f0Hz()
    {
        return f0;
    }

    /**
     * @return f1, Hz.
     */
    public double f1Hz()
    {
        return f1;
    }

    /**
     * @return whether the sweep is logarithmic.
     */
    public boolean logarithmic()
    {
        return logarithmic;
    }

    /**
     * @return T, s.
     */
    public double durationSeconds()
    {
        return durationSeconds;
    }
}
