package io.rfmrt.control;

/**
 * A plant that can fail the controller: a motor driving a load through a compliant coupling (one resonance), with
 * stiction, an unbalanced load, a current-loop lag, torque noise, and an encoder on the motor whose counts (with
 * measurement noise) are all the drive reports: the position in whole counts and the velocity by differencing them.
 * Its inertia is 50 % above what the standard tune assumes. The model and its defaults are in
 * {@link RealisticAxisParameters}.
 * <p>
 * Integration: each period holds the torque command (zero-order hold) over {@code subSteps} classical RK4 steps of the
 * four mechanical states (and the current lag). The brake acts on the motor shaft: braked, the motor decelerates at
 * the brake's torque and, once stopped, is locked while the load rings out on the coupling.
 * <p>
 * Deterministic: the noise comes from a xorshift generator seeded from the parameters, so the same commands give
 * bit-identical runs. Allocation free. Not thread safe: the plant node's loop owns an instance.
 */
public final class RealisticAxisPlant implements SimulatedAxis
{
    private final RealisticAxisParameters p;
    private final double inverseMotorInertia;
    private final double inverseLoadInertia;
    private final double coulombVelocitySquared;
    private final double inverseStribeckVelocitySquared;
    private final double inverseLag;
    private final double count;
    private final int subSteps;

    private double motorPosition;
    private double motorVelocity;
    private double loadPosition;
    private double loadVelocity;
    private double torque;
    private boolean motorLocked;
    private long counts;
    private long previousCounts;
    private double measuredVelocity;
    private long random;

    /**
     * An axis at rest at position 0, coupling relaxed under its gravity load.
     *
     * @param parameters the model; validated here.
     */
    public RealisticAxisPlant(final RealisticAxisParameters parameters)
    {
        this.p = parameters.validate();
        this.inverseMotorInertia = 1.0 / p.motorInertiaKgM2();
        this.inverseLoadInertia = 1.0 / p.loadInertiaKgM2();
        this.coulombVelocitySquared = p.coulombVelocityRadPerS() * p.coulombVelocityRadPerS();
        this.inverseStribeckVelocitySquared = 1.0 / (p.stribeckVelocityRadPerS() * p.stribeckVelocityRadPerS());
        this.inverseLag = p.currentLagSeconds() > 0.0 ? 1.0 / p.currentLagSeconds() : 0.0;
        this.count = p.countRad();
        this.subSteps = p.subSteps();
        reset(0.0);
    }

    @Override
    public void reset(final double positionRad)
    {
        motorPosition = positionRad;
        // the coupling already carries the load's weight: no ringing at the start
        loadPosition = positionRad - p.gravityTorqueNm() * Math.cos(positionRad) / p.couplingStiffnessNmPerRad();
        motorVelocity = 0.0;
        loadVelocity = 0.0;
        torque = 0.0;
        motorLocked = false;
        random = p.seed() == 0 ? 0x9e3779b97f4a7c15L : p.seed();
        counts = Math.round(Math.floor(motorPosition / count));
        previousCounts = counts;
        measuredVelocity = 0.0;
    }

    @Override
    public void step(final double torqueCommandNm, final double dtSeconds)
    {
        double command = torqueCommandNm == torqueCommandNm ? torqueCommandNm : 0.0;
        command = Math.max(-p.peakTorqueNm(), Math.min(p.peakTorqueNm(), command)) + p.torqueNoiseNm() * gaussian();
        motorLocked = false;
        integrate(command, dtSeconds, false);
        measure(dtSeconds);
    }

    @Override
    public void brake(final double dtSeconds)
    {
        torque = 0.0;
        final double h = dtSeconds / subSteps;
        for (int i = 0; i < subSteps; i++)
        {
            // the torque the coupling puts on the motor shaft (it acts as −spring): the brake holds up to its own
            // torque plus the breakaway friction
            final double spring = coupling();
            final boolean holds = Math.abs(spring) <= p.brakeTorqueNm() + p.breakawayTorqueNm();
            motorLocked = holds && (motorLocked || motorVelocity == 0.0);
            if (motorLocked)
            {
                // the motor is held; the load swings on the coupling
                motorVelocity = 0.0;
                rk4Load(h);
                continue;
            }
            // the brake against the motion (at rest: against the coupling that overcomes it)
            final double brake = motorVelocity == 0.0 ? Math.copySign(p.brakeTorqueNm(), spring) :
                -Math.copySign(p.brakeTorqueNm(), motorVelocity);
            final double before = motorVelocity;
            rk4(h, brake);
            if (before != 0.0 && Math.signum(motorVelocity) != Math.signum(before))
            {
                // stopped inside this sub-step: the brake holds from here
                motorVelocity = 0.0;
                motorLocked = holds;
            }
        }
        measure(dtSeconds);
    }

    @Override
    public void coast(final double dtSeconds)
    {
        motorLocked = false;
        integrate(0.0, dtSeconds, true);
        measure(dtSeconds);
    }

    private void integrate(final double command, final double dtSeconds, final boolean unpowered)
    {
        final double h = dtSeconds / subSteps;
        if (unpowered)
        {
            torque = 0.0;
        }
        for (int i = 0; i < subSteps; i++)
        {
            if (inverseLag == 0.0 || unpowered)
            {
                torque = command;
                rk4(h, command);
            }
            else
            {
                rk4WithLag(h, command);
            }
        }
    }

    /** The encoder at the end of a period: counts with noise, velocity by differencing. */
    private void measure(final double dtSeconds)
    {
        previousCounts = counts;
        counts = (long)Math.floor(motorPosition / count + p.positionNoiseCounts() * gaussian());
        measuredVelocity = (counts - previousCounts) * count / dtSeconds;
    }

    private double coupling()
    {
        return p.couplingStiffnessNmPerRad() * (motorPosition - loadPosition) +
            p.couplingDampingNmSPerRad() * (motorVelocity - loadVelocity);
    }

    private double friction(final double omega)
    {
        final double stribeck = p.coulombFrictionNm() + (p.breakawayTorqueNm() - p.coulombFrictionNm()) *
            Math.exp(-omega * omega * inverseStribeckVelocitySquared);
        return p.viscousFrictionNmSPerRad() * omega + stribeck * omega / Math.sqrt(omega * omega +
            coulombVelocitySquared);
    }

    private double motorAcceleration(final double tm, final double wm, final double tl, final double wl,
        final double motorTorque)
    {
        final double spring = p.couplingStiffnessNmPerRad() * (tm - tl) + p.couplingDampingNmSPerRad() * (wm - wl);
        return (motorTorque - spring - friction(wm)) * inverseMotorInertia;
    }

    private double loadAcceleration(final double tm, final double wm, final double tl, final double wl)
    {
        final double spring = p.couplingStiffnessNmPerRad() * (tm - tl) + p.couplingDampingNmSPerRad() * (wm - wl);
        return (spring - p.gravityTorqueNm() * Math.cos(tl)) * inverseLoadInertia;
    }

    private void rk4(final double h, final double motorTorque)
    {
        final double tm0 = motorPosition;
        final double wm0 = motorVelocity;
        final double tl0 = loadPosition;
        final double wl0 = loadVelocity;
        final double am1 = motorAcceleration(tm0, wm0, tl0, wl0, motorTorque);
        final double al1 = loadAcceleration(tm0, wm0, tl0, wl0);
        final double tm1 = tm0 + 0.5 * h * wm0;
        final double wm1 = wm0 + 0.5 * h * am1;
        final double tl1 = tl0 + 0.5 * h * wl0;
        final double wl1 = wl0 + 0.5 * h * al1;
        final double am2 = motorAcceleration(tm1, wm1, tl1, wl1, motorTorque);
        final double al2 = loadAcceleration(tm1, wm1, tl1, wl1);
        final double tm2 = tm0 + 0.5 * h * wm1;
        final double wm2 = wm0 + 0.5 * h * am2;
        final double tl2 = tl0 + 0.5 * h * wl1;
        final double wl2 = wl0 + 0.5 * h * al2;
        final double am3 = motorAcceleration(tm2, wm2, tl2, wl2, motorTorque);
        final double al3 = loadAcceleration(tm2, wm2, tl2, wl2);
        final double tm3 = tm0 + h * wm2;
        final double wm3 = wm0 + h * am3;
        final double tl3 = tl0 + h * wl2;
        final double wl3 = wl0 + h * al3;
        final double am4 = motorAcceleration(tm3, wm3, tl3, wl3, motorTorque);
        final double al4 = loadAcceleration(tm3, wm3, tl3, wl3);
        motorPosition = tm0 + h / 6.0 * (wm0 + 2.0 * wm1 + 2.0 * wm2 + wm3);
        motorVelocity = wm0 + h / 6.0 * (am1 + 2.0 * am2 + 2.0 * am3 + am4);
        loadPosition = tl0 + h / 6.0 * (wl0 + 2.0 * wl1 + 2.0 * wl2 + wl3);
        loadVelocity = wl0 + h / 6.0 * (al1 + 2.0 * al2 + 2.0 * al3 + al4);
    }

    private void rk4WithLag(final double h, final double command)
    {
        final double tm0 = motorPosition;
        final double wm0 = motorVelocity;
        final double tl0 = loadPosition;
        final double wl0 = loadVelocity;
        final double q0 = torque;
        final double am1 = motorAcceleration(tm0, wm0, tl0, wl0, q0);
        final double al1 = loadAcceleration(tm0, wm0, tl0, wl0);
        final double d1 = (command - q0) * inverseLag;
        final double tm1 = tm0 + 0.5 * h * wm0;
        final double wm1 = wm0 + 0.5 * h * am1;
        final double tl1 = tl0 + 0.5 * h * wl0;
        final double wl1 = wl0 + 0.5 * h * al1;
        final double q1 = q0 + 0.5 * h * d1;
        final double am2 = motorAcceleration(tm1, wm1, tl1, wl1, q1);
        final double al2 = loadAcceleration(tm1, wm1, tl1, wl1);
        final double d2 = (command - q1) * inverseLag;
        final double tm2 = tm0 + 0.5 * h * wm1;
        final double wm2 = wm0 + 0.5 * h * am2;
        final double tl2 = tl0 + 0.5 * h * wl1;
        final double wl2 = wl0 + 0.5 * h * al2;
        final double q2 = q0 + 0.5 * h * d2;
        final double am3 = motorAcceleration(tm2, wm2, tl2, wl2, q2);
        final double al3 = loadAcceleration(tm2, wm2, tl2, wl2);
        final double d3 = (command - q2) * inverseLag;
        final double tm3 = tm0 + h * wm2;
        final double wm3 = wm0 + h * am3;
        final double tl3 = tl0 + h * wl2;
        final double wl3 = wl0 + h * al3;
        final double q3 = q0 + h * d3;
        final double am4 = motorAcceleration(tm3, wm3, tl3, wl3, q3);
        final double al4 = loadAcceleration(tm3, wm3, tl3, wl3);
        final double d4 = (command - q3) * inverseLag;
        motorPosition = tm0 + h / 6.0 * (wm0 + 2.0 * wm1 + 2.0 * wm2 + wm3);
        motorVelocity = wm0 + h / 6.0 * (am1 + 2.0 * am2 + 2.0 * am3 + am4);
        loadPosition = tl0 + h / 6.0 * (wl0 + 2.0 * wl1 + 2.0 * wl2 + wl3);
        loadVelocity = wl0 + h / 6.0 * (al1 + 2.0 * al2 + 2.0 * al3 + al4);
        torque = q0 + h / 6.0 * (d1 + 2.0 * d2 + 2.0 * d3 + d4);
    }

    /** RK4 of the load alone, the motor locked by the brake. */
    private void rk4Load(final double h)
    {
        final double tm = motorPosition;
        final double tl0 = loadPosition;
        final double wl0 = loadVelocity;
        final double al1 = loadAcceleration(tm, 0.0, tl0, wl0);
        final double tl1 = tl0 + 0.5 * h * wl0;
        final double wl1 = wl0 + 0.5 * h * al1;
        final double al2 = loadAcceleration(tm, 0.0, tl1, wl1);
        final double tl2 = tl0 + 0.5 * h * wl1;
        final double wl2 = wl0 + 0.5 * h * al2;
        final double al3 = loadAcceleration(tm, 0.0, tl2, wl2);
        final double tl3 = tl0 + h * wl2;
        final double wl3 = wl0 + h * al3;
        final double al4 = loadAcceleration(tm, 0.0, tl3, wl3);
        loadPosition = tl0 + h / 6.0 * (wl0 + 2.0 * wl1 + 2.0 * wl2 + wl3);
        loadVelocity = wl0 + h / 6.0 * (al1 + 2.0 * al2 + 2.0 * al3 + al4);
    }

    /** About N(0, 1): the sum of twelve uniform draws of a xorshift64* generator, less 6. */
    private double gaussian()
    {
        double sum = 0.0;
        for (int i = 0; i < 12; i++)
        {
            random ^= random >>> 12;
            random ^= random << 25;
            random ^= random >>> 27;
            sum += ((random * 0x2545F4914F6CDD1DL) >>> 11) * 0x1.0p-53;
        }
        return sum - 6.0;
    }

    @Override
    public double position()
    {
        return motorPosition;
    }

    @Override
    public double velocity()
    {
        return motorVelocity;
    }

    /**
     * @return the load's position, rad.
     */
    public double loadPosition()
    {
        return loadPosition;
    }

    @Override
    public double torque()
    {
        return torque;
    }

    @Override
    public double measuredPosition()
    {
        return counts * count;
    }

    @Override
    public double measuredVelocity()
    {
        return measuredVelocity;
    }

    /**
     * @return the encoder's count of the last period.
     */
    public long counts()
    {
        return counts;
    }

    @Override
    public double peakTorqueNm()
    {
        return p.peakTorqueNm();
    }

    @Override
    public double inertiaKgM2()
    {
        return p.totalInertiaKgM2();
    }

    /**
     * @return the parameters.
     */
    public RealisticAxisParameters parameters()
    {
        return p;
    }
}
