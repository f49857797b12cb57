package io.rfmrt.control.journal;

import io.rfmrt.control.excite.InjectionPoint;

/**
 * A typed view of an EXCITATION sample ({@link ControlJournal#SAMPLE_EXCITATION}): what an excitation injected in one
 * control cycle. Stamped with the same time as that cycle's CONTROL sample ({@link ControlSample#nanos()}), so the two
 * pair by cycle or by stamp. Its state field is the injection point ({@link #point()}), not an axis state. A
 * flyweight, as {@link ControlSample}.
 * <pre>{@code
 * if (excitation.wrap(record)) { u[n] = excitation.injected(); before[n] = excitation.before(); }
 * }</pre>
 */
public final class ExcitationSample extends SampleView
{
    /** Index of the injected value (N·m, rad/s or rad, by point). */
    public static final int INJECTED = 0;
    /** Index of the signal's instantaneous frequency, Hz (a chirp's; 0 for a step, a PRBS and the fade). */
    public static final int FREQUENCY = 1;
    /** Index of the signal's kind (1 step, 2 chirp, 3 PRBS; {@link io.rfmrt.control.excite.ExcitationSignal}). */
    public static final int KIND = 2;
    /** Index of the signal's amplitude. */
    public static final int AMPLITUDE = 3;
    /** Index of the value at the injection point before the injection was added. */
    public static final int BEFORE = 4;

    /** A view wrapping nothing yet. */
    public ExcitationSample()
    {
        super(ControlJournal.SAMPLE_EXCITATION, "EXCITATION");
    }

    /**
     * @return when the cycle's command was written (its CONTROL sample's stamp), the controller's
     * {@code System.nanoTime()}.
     */
    public long nanos()
    {
        return recordNanos();
    }

    /**
     * @return where it was injected, or null for an id no point has.
     */
    public InjectionPoint point()
    {
        return InjectionPoint.fromId(stateId());
    }

    /**
     * @return the injected value, in the point's unit.
     */
    public double injected()
    {
        return value(INJECTED);
    }

    /**
     * @return the instantaneous frequency, Hz.
     */
    public double frequencyHz()
    {
        return value(FREQUENCY);
    }

    /**
     * @return the signal's kind id.
     */
    public int kind()
    {
        return (int)value(KIND);
    }

    /**
     * @return the signal's amplitude.
     */
    public double amplitude()
    {
        return value(AMPLITUDE);
    }

    /**
     * @return the value at the injection point before the injection (the law's torque, its velocity reference, the
     * trajectory's position setpoint).
     */
    public double before()
    {
        return value(BEFORE);
    }
}
