package io.rfmrt.control;

/**
 * The state of an axis as the {@link Watchdog} sees its sensor stream.
 */
public enum AxisState
{
    /** Waiting for a steady sensor stream; the axis is not driven (zero torque). */
    STARTING,
    /** Sensor frames arrive on time; the controller drives the axis. */
    RUNNING,
    /** Sensor frames stopped (or a stop was commanded); the axis is held safe: zero torque or hold. */
    SAFE,
    /** Sensor frames are back; the axis stays safe until enough good frames in a row have arrived. */
    RECOVERING
}
