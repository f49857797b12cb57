package io.rfmrt.control;

/**
 * One segment of a trajectory: a rest-to-rest point-to-point move (trapezoidal velocity, or jerk-limited S-curve) or a
 * dwell, as up to seven phases of constant jerk. Sampled with {@link #sample(double, Setpoint)} at a time relative to
 * the start of the segment.
 * <ul>
 *   <li>{@link Kind#TRAPEZOIDAL}: accelerate at a_max, cruise at v_max, decelerate at a_max. Position and velocity
 *       are continuous; acceleration steps. A short move that cannot reach v_max is triangular: peak velocity
 *       √(D·a_max).</li>
 *   <li>{@link Kind#S_CURVE}: jerk ±j_max ramps the acceleration to a_max and back (seven phases). Position,
 *       velocity and acceleration are continuous. A short move lowers the peak velocity so the move just fits, and
 *       if even then a_max is not reached, the acceleration profile becomes triangular with peak √(v·j_max).</li>
 *   <li>{@link Kind#DWELL}: stand still at a position for a time.</li>
 * </ul>
 * A profile is planned by a {@code plan…} method, which may be called again on the same instance to re-plan without
 * allocating (e.g. a recovery move from wherever the axis stopped); the static factories plan a new instance.
 * Planning validates the limits and throws; sampling allocates nothing and never throws.
 * <p>
 * Units: rad, s, rad/s, rad/s², rad/s³. Not thread safe while being re-planned; a planned profile that is no longer
 * re-planned can be sampled from any thread.
 */
public final class MoveProfile
{
    /**
     * The shape of a segment.
     */
    public enum Kind
    {
        /** Trapezoidal velocity: acceleration limited, jerk unbounded. */
        TRAPEZOIDAL,
        /** Jerk-limited S-curve: acceleration continuous. */
        S_CURVE,
        /** Standing still. */
        DWELL
    }

    private static final int MAX_PHASES = 7;

    private final double[] phaseStart = new double[MAX_PHASES + 1];
    private final double[] phasePosition = new double[MAX_PHASES];
    private final double[] phaseVelocity = new double[MAX_PHASES];
    private final double[] phaseAcceleration = new double[MAX_PHASES];
    private final double[] phaseJerk = new double[MAX_PHASES];
    private int phases;
    private Kind kind = Kind.DWELL;
    private double start;
    private double end;
    private double direction;
    private double duration;
    private double peakVelocity;
    private double peakAcceleration;

    /**
     * A dwell of 0 s at 0; plan it with a {@code plan…} method.
     */
    public MoveProfile()
    {
        planDwell(0.0, 0.0);
    }

    /**
     * @param from       start position, rad.
     * @param to         end position, rad.
     * @param vMax       velocity limit, rad/s, &gt; 0.
     * @param aMax       acceleration limit, rad/s², &gt; 0.
     * @return a new trapezoidal move.
     * @throws IllegalArgumentException naming a bad argument.
     */
    public static MoveProfile trapezoidal(final double from, final double to, final double vMax, final double aMax)
    {
        return new MoveProfile().planTrapezoidal(from, to, vMax, aMax);
    }

    /**
     * @param from       start position, rad.
     * @param to         end position, rad.
     * @param vMax       velocity limit, rad/s, &gt; 0.
     * @param aMax       acceleration limit, rad/s², &gt; 0.
     * @param jMax       jerk limit, rad/s³, &gt; 0.
     * @return a new S-curve move.
     * @throws IllegalArgumentException naming a bad argument.
     */
    public static MoveProfile sCurve(final double from, final double to, final double vMax, final double aMax,
        final double jMax)
    {
        return new MoveProfile().planSCurve(from, to, vMax, aMax, jMax);
    }

    /**
     * @param position where to stand, rad.
     * @param seconds  for how long, s, &ge; 0.
     * @return a new dwell.
     * @throws IllegalArgumentException naming a bad argument.
     */
    public static MoveProfile dwell(final double position, final double seconds)
    {
        return new MoveProfile().planDwell(position, seconds);
    }

    /**
     * Re-plan this instance as a dwell.
     *
     * @param position where to stand, rad.
     * @param seconds  for how long, s, &ge; 0.
     * @return this.
     * @throws IllegalArgumentException naming a bad argument.
     */
    public MoveProfile planDwell(final double position, final double seconds)
    {
        finite("position", position);
        if (!(seconds >= 0.0) || !Double.isFinite(seconds))
        {
            throw new IllegalArgumentException("dwell time must be >= 0 s, was " + seconds);
        }
        begin(Kind.DWELL, position, position);
        addPhase(seconds, 0.0, 0.0);
        return finish(0.0, 0.0);
    }

    /**
     * Re-plan this instance as a trapezoidal move.
     *
     * @param from       start position, rad.
     * @param to         end position, rad.
     * @param vMax       velocity limit, rad/s, &gt; 0.
     * @param aMax       acceleration limit, rad/s², &gt; 0.
     * @return this.
     * @throws IllegalArgumentException naming a bad argument.
     */
    public MoveProfile planTrapezoidal(final double from, final double to, final double vMax, final double aMax)
    {
        finite("from", from);
        finite("to", to);
        positive("vMax", vMax);
        positive("aMax", aMax);
        begin(Kind.TRAPEZOIDAL, from, to);
        final double distance = Math.abs(to - from);
        if (distance == 0.0)
        {
            return finish(0.0, 0.0);
        }
        final double velocity = Math.min(vMax, Math.sqrt(distance * aMax));
        final double accelerationTime = velocity / aMax;
        final double cruiseTime = Math.max(0.0, distance / velocity - accelerationTime);
        addPhase(accelerationTime, aMax, 0.0);
        addPhase(cruiseTime, 0.0, 0.0);
        addPhase(accelerationTime, -aMax, 0.0);
        return finish(velocity, aMax);
    }

    /**
     * Re-plan this instance as a jerk-limited S-curve move (symmetric: deceleration mirrors acceleration).
     *
     * @param from       start position, rad.
     * @param to         end position, rad.
     * @param vMax       velocity limit, rad/s, &gt; 0.
     * @param aMax       acceleration limit, rad/s², &gt; 0.
     * @param jMax       jerk limit, rad/s³, &gt; 0.
     * @return this.
     * @throws IllegalArgumentException naming a bad argument.
     */
    public MoveProfile planSCurve(final double from, final double to, final double vMax, final double aMax,
        final double jMax)
    {
        finite("from", from);
        finite("to", to);
        positive("vMax", vMax);
        positive("aMax", aMax);
        positive("jMax", jMax);
        begin(Kind.S_CURVE, from, to);
        final double distance = Math.abs(to - from);
        if (distance == 0.0)
        {
            return finish(0.0, 0.0);
        }
        // the acceleration phase from rest to velocity v: trapezoidal acceleration when v >= a²/j, else triangular
        double velocity = vMax;
        double acceleration = Math.min(aMax, Math.sqrt(vMax * jMax));
        double rampTime = acceleration / jMax;
        double accelerationTime = velocity / acceleration + rampTime;
        if (distance < velocity * accelerationTime)
        {
            // v_max is not reached: the acceleration and deceleration phases meet, distance = v·T_acc(v)
            if (distance >= 2.0 * aMax * aMax * aMax / (jMax * jMax))
            {
                acceleration = aMax;
                rampTime = aMax / jMax;
                velocity = 0.5 * aMax * (Math.sqrt(rampTime * rampTime + 4.0 * distance / aMax) - rampTime);
            }
            else
            {
                rampTime = StrictMath.cbrt(distance / (2.0 * jMax));
                acceleration = jMax * rampTime;
                velocity = acceleration * rampTime;
            }
            accelerationTime = velocity / acceleration + rampTime;
        }
        final double constantAccelerationTime = Math.max(0.0, accelerationTime - 2.0 * rampTime);
        final double cruiseTime = Math.max(0.0, distance / velocity - accelerationTime);
        addPhase(rampTime, 0.0, jMax);
        addPhase(constantAccelerationTime, acceleration, 0.0);
        addPhase(rampTime, acceleration, -jMax);
        addPhase(cruiseTime, 0.0, 0.0);
        addPhase(rampTime, 0.0, -jMax);
        addPhase(constantAccelerationTime, -acceleration, 0.0);
        addPhase(rampTime, -acceleration, jMax);
        return finish(velocity, acceleration);
    }

    /**
     * The setpoint at a time into this segment. Before 0 it is the start at rest, from the end on the end position
     * at rest (exactly), so consecutive segments join without a jump.
     *
     * @param t   seconds since the segment started.
     * @param out receives position, velocity, acceleration and jerk.
     */
    public void sample(final double t, final Setpoint out)
    {
        if (!(t > 0.0))
        {
            out.set(start, 0.0, 0.0, 0.0);
            return;
        }
        if (t >= duration)
        {
            out.set(end, 0.0, 0.0, 0.0);
            return;
        }
        int i = 0;
        while (i < phases - 1 && t >= phaseStart[i + 1])
        {
            i++;
        }
        final double dt = t - phaseStart[i];
        final double j = phaseJerk[i];
        final double a0 = phaseAcceleration[i];
        final double v0 = phaseVelocity[i];
        final double acceleration = a0 + j * dt;
        final double velocity = v0 + (a0 + j * dt * 0.5) * dt;
        final double position = phasePosition[i] + (v0 + (a0 * 0.5 + j * dt / 6.0) * dt) * dt;
        out.set(start + direction * position, direction * velocity, direction * acceleration, direction * j);
    }

    /**
     * @return the shape.
     */
    public Kind kind()
    {
        return kind;
    }

    /**
     * @return start position, rad.
     */
    public double startPosition()
    {
        return start;
    }

    /**
     * @return end position, rad.
     */
    public double endPosition()
    {
        return end;
    }

    /**
     * @return |end − start|, rad.
     */
    public double distance()
    {
        return Math.abs(end - start);
    }

    /**
     * @return how long the segment takes, s.
     */
    public double durationSeconds()
    {
        return duration;
    }

    /**
     * @return the highest |velocity| of the move (v_max, or less for a short move), rad/s.
     */
    public double peakVelocity()
    {
        return peakVelocity;
    }

    /**
     * @return the highest |acceleration| of the move (a_max, or less for a short S-curve), rad/s².
     */
    public double peakAcceleration()
    {
        return peakAcceleration;
    }

    @Override
    public String toString()
    {
        return "MoveProfile{" + kind + " " + start + " -> " + end + " in " + duration + " s, peak velocity " +
            peakVelocity + ", peak acceleration " + peakAcceleration + '}';
    }

    private void begin(final Kind newKind, final double from, final double to)
    {
        kind = newKind;
        start = from;
        end = to;
        direction = to >= from ? 1.0 : -1.0;
        phases = 0;
        phaseStart[0] = 0.0;
    }

    /**
     * Append a phase of constant jerk starting at the given acceleration; its position and velocity continue from
     * the end of the phase before (in the move's own direction, from 0).
     */
    private void addPhase(final double length, final double acceleration, final double jerk)
    {
        final int i = phases;
        if (i == 0)
        {
            phasePosition[0] = 0.0;
            phaseVelocity[0] = 0.0;
        }
        else
        {
            final int p = i - 1;
            final double dt = phaseStart[i] - phaseStart[p];
            final double a0 = phaseAcceleration[p];
            final double v0 = phaseVelocity[p];
            final double j = phaseJerk[p];
            phaseVelocity[i] = v0 + (a0 + j * dt * 0.5) * dt;
            phasePosition[i] = phasePosition[p] + (v0 + (a0 * 0.5 + j * dt / 6.0) * dt) * dt;
        }
        phaseAcceleration[i] = acceleration;
        phaseJerk[i] = jerk;
        phaseStart[i + 1] = phaseStart[i] + length;
        phases = i + 1;
    }

    private MoveProfile finish(final double velocity, final double acceleration)
    {
        if (phases == 0)
        {
            addPhase(0.0, 0.0, 0.0);
        }
        duration = phaseStart[phases];
        peakVelocity = velocity;
        peakAcceleration = acceleration;
        return this;
    }

    private static void finite(final String name, final double value)
    {
        if (!Double.isFinite(value))
        {
            throw new IllegalArgumentException(name + " must be a finite position, was " + value);
        }
    }

    private static void positive(final String name, final double value)
    {
        if (!(value > 0.0) || !Double.isFinite(value))
        {
            throw new IllegalArgumentException(name + " must be > 0, was " + value);
        }
    }
}
