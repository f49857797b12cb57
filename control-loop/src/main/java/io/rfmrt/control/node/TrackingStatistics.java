package io.rfmrt.control.node;

import io.rfmrt.control.Setpoint;

/**
 * How well the axis tracked while RUNNING: RMS and largest error over all such cycles, over the moves only (a cycle
 * whose setpoint moves or accelerates: the rest between moves would dilute it) and the largest error at rest, and the
 * largest torque commanded.
 * <p>
 * Threading: the handler thread only; read after the run.
 */
final class TrackingStatistics
{
    private long trackedCycles;
    private double sumSquaredError;
    private double maxError;
    private long movingCycles;
    private double movingSumSquaredError;
    private double movingMaxError;
    private double restMaxError;
    private double peakTorque;

    /**
     * A RUNNING cycle.
     *
     * @param error    setpoint − measured position, rad.
     * @param setpoint the setpoint.
     * @param torque   the torque commanded, N·m.
     */
    void running(final double error, final Setpoint setpoint, final double torque)
    {
        sumSquaredError += error * error;
        maxError = Math.max(maxError, Math.abs(error));
        trackedCycles++;
        peakTorque = Math.max(peakTorque, Math.abs(torque));
        if (setpoint.velocity() != 0.0 || setpoint.acceleration() != 0.0)
        {
            movingSumSquaredError += error * error;
            movingMaxError = Math.max(movingMaxError, Math.abs(error));
            movingCycles++;
        }
        else
        {
            restMaxError = Math.max(restMaxError, Math.abs(error));
        }
    }

    /**
     * @return RUNNING cycles.
     */
    long trackedCycles()
    {
        return trackedCycles;
    }

    /**
     * @return RMS error over the RUNNING cycles, rad (0 when none).
     */
    double rmsError()
    {
        return trackedCycles == 0 ? 0.0 : Math.sqrt(sumSquaredError / trackedCycles);
    }

    /**
     * @return the largest |error| while RUNNING, rad.
     */
    double maxError()
    {
        return maxError;
    }

    /**
     * @return cycles on a move.
     */
    long movingCycles()
    {
        return movingCycles;
    }

    /**
     * @return RMS error over the moves, rad (0 when none).
     */
    double movingRmsError()
    {
        return movingCycles == 0 ? 0.0 : Math.sqrt(movingSumSquaredError / movingCycles);
    }

    /**
     * @return the largest |error| on a move, rad.
     */
    double movingMaxError()
    {
        return movingMaxError;
    }

    /**
     * @return the largest |error| at rest, rad.
     */
    double restMaxError()
    {
        return restMaxError;
    }

    /**
     * @return the largest |torque| commanded while RUNNING, N·m.
     */
    double peakTorque()
    {
        return peakTorque;
    }
}
