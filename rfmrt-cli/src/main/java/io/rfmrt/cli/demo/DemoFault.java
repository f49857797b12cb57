package io.rfmrt.cli.demo;

import io.rfmrt.cli.common.UsageException;

import java.util.concurrent.TimeUnit;

/**
 * The fault {@code rfmrt demo --fault} injects, placed in the run: each starts at 40 % of the cycles.
 *
 * @param name                 the option's value, or "none".
 * @param dropFrom             sensor-dropout: the first cycle without sensor frames (0: no dropout).
 * @param dropTo               the cycle they come back.
 * @param latencyFrom          latency: the first cycle whose command acts late (0: no latency).
 * @param latencyNanos         how late, ns.
 * @param stallAt              plant-stall or controller-stall: the cycle of the hold-up (0: none).
 * @param plantStallNanos      the plant's hold-up, ns.
 * @param controllerStallNanos the controller's hold-up, ns.
 */
record DemoFault(String name, long dropFrom, long dropTo, long latencyFrom, long latencyNanos, long stallAt,
    long plantStallNanos, long controllerStallNanos)
{
    /** The option's value of the dropout fault. */
    static final String SENSOR_DROPOUT = "sensor-dropout";

    /**
     * @param fault  the {@code --fault} value, or {@code null} for none.
     * @param cycles the run's cycles.
     * @return the fault, placed in the run.
     * @throws UsageException for a value that names no fault.
     */
    static DemoFault parse(final String fault, final long cycles)
    {
        final long at = Math.max(1, cycles * 40 / 100);
        if (fault == null)
        {
            return new DemoFault("none", 0, 0, 0, 0, 0, 0, 0);
        }
        if (SENSOR_DROPOUT.equals(fault))
        {
            return new DemoFault(fault, at, cycles * 55 / 100, 0, 0, 0, 0, 0);
        }
        final long latency = latencyNanos(fault);
        final long plantStall = stallNanos(fault, "plant");
        final long controllerStall = stallNanos(fault, "controller");
        if (latency == 0 && plantStall == 0 && controllerStall == 0)
        {
            throw new UsageException("--fault '" + fault + "' is not sensor-dropout, latency:Nms (N 1..100), " +
                "plant-stall:Nms or controller-stall:Nms (N 1..1000)");
        }
        return new DemoFault(fault, 0, 0, latency > 0 ? at : 0, latency, latency > 0 ? 0 : at, plantStall,
            controllerStall);
    }

    /**
     * @return whether a fault is injected at all.
     */
    boolean any()
    {
        return !"none".equals(name);
    }

    /**
     * @param rate the loop rate.
     * @return what the run's first line says of the fault ("" for none).
     */
    String describe(final int rate)
    {
        if (!any())
        {
            return "";
        }
        if (dropFrom > 0)
        {
            return String.format(", sensor dropout at %.1f-%.1f s", dropFrom / (double)rate, dropTo / (double)rate);
        }
        if (plantStallNanos + controllerStallNanos > 0)
        {
            return String.format(", the %s held up for %d ms at %.1f s", plantStallNanos > 0 ? "plant" : "controller",
                (plantStallNanos + controllerStallNanos) / 1_000_000, stallAt / (double)rate);
        }
        return String.format(", commands %d ms late from %.1f s", latencyNanos / 1_000_000, latencyFrom / (double)rate);
    }

    /**
     * @param fault the --fault value, or {@code null}.
     * @param node  {@code plant} or {@code controller}.
     * @return the hold-up of a {@code NODE-stall:Nms} fault (N 1..1000), ns; 0 for anything else.
     */
    static long stallNanos(final String fault, final String node)
    {
        final String prefix = node + "-stall:";
        if (fault == null || !fault.matches(prefix + "[0-9]{1,4}ms"))
        {
            return 0;
        }
        final int ms = Integer.parseInt(fault.substring(prefix.length(), fault.length() - 2));
        return ms >= 1 && ms <= 1000 ? TimeUnit.MILLISECONDS.toNanos(ms) : 0;
    }

    /**
     * @param fault the --fault value, or {@code null}.
     * @return the latency of a {@code latency:Nms} fault (N 1..100), ns; 0 for anything else.
     */
    static long latencyNanos(final String fault)
    {
        if (fault == null || !fault.matches("latency:[0-9]{1,3}ms"))
        {
            return 0;
        }
        final int ms = Integer.parseInt(fault.substring("latency:".length(), fault.length() - 2));
        return ms >= 1 && ms <= 100 ? TimeUnit.MILLISECONDS.toNanos(ms) : 0;
    }
}
