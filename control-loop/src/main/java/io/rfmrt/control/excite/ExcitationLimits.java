package io.rfmrt.control.excite;

import io.rfmrt.control.AxisParameters;

/**
 * What an excitation may inject, by point, and the drive's peak torque, which bounds the excited torque command
 * whatever the point (an excitation is refused when its amplitude is above its point's limit, or, on the torque
 * command, above the peak torque).
 *
 * @param torqueNm        the largest amplitude on the torque command, N·m.
 * @param velocityRadPerS the largest amplitude on the velocity reference, rad/s.
 * @param positionRad     the largest amplitude on the position setpoint, rad.
 * @param peakTorqueNm    the drive's peak torque ({@link AxisParameters#peakTorqueNm()}), N·m.
 */
public record ExcitationLimits(double torqueNm, double velocityRadPerS, double positionRad, double peakTorqueNm)
{
    /** Default limit on the torque command: half the standard drive's peak torque, N·m. */
    public static final double TORQUE_DEFAULT_NM = 0.5 * AxisParameters.PEAK_TORQUE_DEFAULT_NM;
    /** Default limit on the velocity reference, rad/s. */
    public static final double VELOCITY_DEFAULT_RAD_PER_S = 20.0;
    /** Default limit on the position setpoint, rad. */
    public static final double POSITION_DEFAULT_RAD = 0.1;

    /** Every limit finite and &gt; 0. */
    public ExcitationLimits
    {
        if (!(torqueNm > 0) || !(velocityRadPerS > 0) || !(positionRad > 0) || !(peakTorqueNm > 0) ||
            !Double.isFinite(torqueNm + velocityRadPerS + positionRad + peakTorqueNm))
        {
            throw new IllegalArgumentException("excitation limits must be finite and > 0: torque " + torqueNm +
                " N·m, velocity " + velocityRadPerS + " rad/s, position " + positionRad + " rad, peak torque " +
                peakTorqueNm + " N·m");
        }
    }

    /**
     * @return the defaults, with the standard drive's peak torque.
     */
    public static ExcitationLimits defaults()
    {
        return new ExcitationLimits(TORQUE_DEFAULT_NM, VELOCITY_DEFAULT_RAD_PER_S, POSITION_DEFAULT_RAD,
            AxisParameters.PEAK_TORQUE_DEFAULT_NM);
    }

    /**
     * @param peakNm the drive's peak torque, N·m.
     * @return these limits for a drive with that peak torque.
     */
    public ExcitationLimits withPeakTorqueNm(final double peakNm)
    {
        return new ExcitationLimits(torqueNm, velocityRadPerS, positionRad, peakNm);
    }

    /**
     * @param point an injection point.
     * @return its limit, in its unit.
     */
    public double limit(final InjectionPoint point)
    {
        return switch (point)
        {
            case TORQUE -> Math.min(torqueNm, peakTorqueNm);
            case VELOCITY -> velocityRadPerS;
            case POSITION -> positionRad;
        };
    }

    /**
     * @param point     where.
     * @param amplitude the amplitude asked for.
     * @return why it is refused (one line), or null when it is within the limits.
     */
    public String refusal(final InjectionPoint point, final double amplitude)
    {
        if (point == InjectionPoint.TORQUE && amplitude > peakTorqueNm)
        {
            return "amp " + amplitude + " is above the drive's peak torque " + peakTorqueNm + " N·m";
        }
        final double limit = limit(point);
        return amplitude > limit ? "amp " + amplitude + " is above the " + point.token() + " limit " + limit + " " +
            point.unit() : null;
    }
}
