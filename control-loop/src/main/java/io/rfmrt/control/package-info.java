/**
 * The motion-control core of rfmrt, free of threads and clocks: a simulated axis ({@link io.rfmrt.control.AxisPlant}),
 * the cascaded position/velocity controller as a pure function ({@link io.rfmrt.control.AxisController}), trapezoidal
 * and S-curve trajectories ({@link io.rfmrt.control.TrajectoryGenerator}, {@link io.rfmrt.control.DemoProfile}), a
 * deadline monitor and a watchdog. The plant and controller nodes drive these from the RFM receive path; every
 * time is passed in, so tests and replays run them without threads. See docs/control.md.
 */
package io.rfmrt.control;
