package io.rfmrt.control;

/**
 * An axis the plant node simulates, advanced one loop period at a time: the ideal one ({@link AxisPlant}: exact
 * position and velocity) or the realistic one ({@link RealisticAxisPlant}: encoder counts, a velocity estimated by
 * differencing, noise, a two-mass resonance, stiction, gravity). What the drive reports is the measurement
 * ({@link #measuredPosition()}, {@link #measuredVelocity()}), taken at the end of each period; the true state is for
 * the journal and the tests.
 * <p>
 * Not thread safe: one thread (the plant node's loop) owns an instance. Allocation free.
 */
public interface SimulatedAxis
{
    /**
     * Put the axis at rest at a position, with no motor torque.
     *
     * @param positionRad rad.
     */
    void reset(double positionRad);

    /**
     * Advance one period with the motor driven by a torque command held over it (zero-order hold); the drive clamps
     * it to its peak torque.
     *
     * @param torqueCommandNm N·m.
     * @param dtSeconds       the period, s.
     */
    void step(double torqueCommandNm, double dtSeconds);

    /**
     * Advance one period with the motor unpowered and the holding brake engaged.
     *
     * @param dtSeconds the period, s.
     */
    void brake(double dtSeconds);

    /**
     * Advance one period with the motor unpowered and the brake not holding (it is still engaging or releasing):
     * the axis coasts on its friction (and falls under any gravity load).
     *
     * @param dtSeconds the period, s.
     */
    void coast(double dtSeconds);

    /**
     * @return the true position of the motor shaft, rad.
     */
    double position();

    /**
     * @return the true velocity of the motor shaft, rad/s.
     */
    double velocity();

    /**
     * @return the motor torque at the end of the last period, N·m (0 while braking or coasting).
     */
    double torque();

    /**
     * @return the position the drive reports for the last period, rad.
     */
    double measuredPosition();

    /**
     * @return the velocity the drive reports for the last period, rad/s.
     */
    double measuredVelocity();

    /**
     * @return the drive's peak torque, N·m.
     */
    double peakTorqueNm();

    /**
     * @return the total inertia the motor moves, kg·m².
     */
    double inertiaKgM2();
}
