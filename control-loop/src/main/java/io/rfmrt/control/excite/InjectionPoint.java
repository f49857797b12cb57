package io.rfmrt.control.excite;

/**
 * Where in the loop an excitation is added, with the id it is journaled by (the state field of an EXCITATION sample):
 * <pre>
 *   setpoint ─(3: + position)─► law: position P ─► velocity reference ─(2: + velocity)─► velocity PI ─► torque ─(1: + torque)─► drive
 * </pre>
 * The torque command measures the plant (torque in, velocity out); the velocity reference measures the velocity loop
 * closed; a step on the position setpoint shows the whole loop's step response.
 */
public enum InjectionPoint
{
    /** Added to the law's torque command, N·m (the plant measurement). */
    TORQUE(1, "torque", "N·m"),
    /** Added to the law's velocity reference, rad/s (the closed velocity loop; the law must offer the hook). */
    VELOCITY(2, "velocity", "rad/s"),
    /** Added to the position setpoint before the law, rad (a step response of the whole loop). */
    POSITION(3, "position", "rad");

    private static final InjectionPoint[] VALUES = values();
    private final int id;
    private final String token;
    private final String unit;

    InjectionPoint(final int id, final String token, final String unit)
    {
        this.id = id;
        this.token = token;
        this.unit = unit;
    }

    /**
     * @return the journaled id.
     */
    public int id()
    {
        return id;
    }

    /**
     * @return its name in a spec ({@code point=torque}).
     */
    public String token()
    {
        return token;
    }

    /**
     * @return the unit of a value injected here.
     */
    public String unit()
    {
        return unit;
    }

    /**
     * @param token a spec's {@code point=} value.
     * @return the point, or null for none.
     */
    public static InjectionPoint ofToken(final String token)
    {
        for (final InjectionPoint p : VALUES)
        {
            if (p.token.equals(token))
            {
                return p;
            }
        }
        return null;
    }

    /**
     * @param id a journaled id.
     * @return the point, or null for an id none has.
     */
    public static InjectionPoint fromId(final int id)
    {
        for (final InjectionPoint p : VALUES)
        {
            if (p.id == id)
            {
                return p;
            }
        }
        return null;
    }
}
