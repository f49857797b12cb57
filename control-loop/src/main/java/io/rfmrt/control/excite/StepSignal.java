package io.rfmrt.control.excite;

/**
 * A step: {@code amplitude} from the signal's first cycle for {@code cycles} cycles (the excitation's fade takes it
 * back to 0 after the last).
 * <p>
 * Threading: immutable.
 */
public final class StepSignal implements ExcitationSignal
{
    private final double amplitude;
    private final long cycles;

    /**
     * @param amplitude the step's height (signed), in the injection point's unit.
     * @param cycles    how long it is held, cycles (≥ 1).
     */
    public StepSignal(final double amplitude, final long cycles)
    {
        if (cycles < 1 || !Double.isFinite(amplitude))
        {
            throw new IllegalArgumentException("a step needs a finite amplitude (" + amplitude + ") and >= 1 cycle (" +
                cycles + ")");
        }
        this.amplitude = amplitude;
        this.cycles = cycles;
    }

    @Override
    public int kind()
    {
        return KIND_STEP;
    }

    @Override
    public double amplitude()
    {
        return Math.abs(amplitude);
    }

    @Override
    public long cycles()
    {
        return cycles;
    }

    @Override
    public double value(final long n)
    {
        return n >= 0 && n < cycles ? amplitude : 0.0;
    }

    @Override
    public double frequencyHz(final long n)
    {
        return 0.0;
    }
}
