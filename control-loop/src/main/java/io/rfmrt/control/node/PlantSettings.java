package io.rfmrt.control.node;

import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.AxisPlant;
import io.rfmrt.control.Cia402Drive;
import io.rfmrt.control.RateCheck;
import io.rfmrt.control.RealisticAxisParameters;
import io.rfmrt.control.RealisticAxisPlant;
import io.rfmrt.control.SimulatedAxis;

import java.util.concurrent.TimeUnit;

/**
 * The plant's settings (a plant node's {@code app:}, {@link PlantApp}): their defaults and ranges in one place.
 *
 * @param rateHz      loop rate (default 1000).
 * @param cycles      periods to run (default 0: until stopped).
 * @param dropoutFrom first withheld cycle (0 = none).
 * @param dropoutTo   first cycle published again.
 * @param priority    the loop's SCHED_FIFO priority (default 60).
 * @param latencyFrom  first cycle of the latency fault (0 = none): from it on, each command acts
 *                     {@code latencyNanos} later than it arrived.
 * @param latencyNanos the added transport delay (rounded to whole periods).
 * @param quickStopRadPerS2 the drive's quick-stop deceleration (default 50 rad/s²).
 * @param model        {@value PlantApp#MODEL_IDEAL} (default) or {@value PlantApp#MODEL_REALISTIC}.
 * @param delayPeriods periods between a command being due and the drive applying it (default 0, or 1 for the
 *                     realistic model: a cyclic-synchronous drive applies it at the next sync).
 * @param brakeReleaseMs the brake's release time (default 20 ms).
 * @param brakeEngageMs  its engage time (default 10 ms).
 * @param stallAt      the plant-stall fault: the tick after which the loop is held up once (0 = none).
 * @param stallNanos   how long, ns (at most 10 s).
 */
public record PlantSettings(Integer rateHz, Long cycles, Long dropoutFrom, Long dropoutTo, Integer priority,
    Long latencyFrom, Long latencyNanos, Double quickStopRadPerS2, String model, Integer delayPeriods,
    Double brakeReleaseMs, Double brakeEngageMs, Long stallAt, Long stallNanos)
{
    /** Defaults and ranges. */
    public PlantSettings
    {
        rateHz = rateHz == null ? 1000 : rateHz;
        cycles = cycles == null ? 0 : cycles;
        dropoutFrom = dropoutFrom == null ? 0 : dropoutFrom;
        dropoutTo = dropoutTo == null ? 0 : dropoutTo;
        priority = priority == null ? 60 : priority;
        latencyFrom = latencyFrom == null ? 0 : latencyFrom;
        latencyNanos = latencyNanos == null ? 0 : latencyNanos;
        quickStopRadPerS2 = quickStopRadPerS2 == null ? 50.0 : quickStopRadPerS2;
        model = model == null ? PlantApp.MODEL_IDEAL : model;
        if (!PlantApp.MODEL_IDEAL.equals(model) && !PlantApp.MODEL_REALISTIC.equals(model))
        {
            throw new IllegalArgumentException("model '" + model + "' is not " + PlantApp.MODEL_IDEAL + " or " +
                PlantApp.MODEL_REALISTIC);
        }
        delayPeriods = delayPeriods == null ? (PlantApp.MODEL_REALISTIC.equals(model) ? 1 : 0) : delayPeriods;
        brakeReleaseMs = brakeReleaseMs == null ? Cia402Drive.BRAKE_RELEASE_DEFAULT_MS : brakeReleaseMs;
        brakeEngageMs = brakeEngageMs == null ? Cia402Drive.BRAKE_ENGAGE_DEFAULT_MS : brakeEngageMs;
        stallAt = stallAt == null ? 0 : stallAt;
        stallNanos = stallNanos == null ? 0 : stallNanos;
        if (stallAt < 0 || stallNanos < 0 || stallNanos > TimeUnit.SECONDS.toNanos(10))
        {
            throw new IllegalArgumentException("stallAt " + stallAt + " must be >= 0 and stallNanos " +
                stallNanos + " 0..10000000000");
        }
        if (delayPeriods < 0 || delayPeriods > PlantApp.STALE_PERIODS - 1)
        {
            throw new IllegalArgumentException("delayPeriods " + delayPeriods + " is not 0.." +
                (PlantApp.STALE_PERIODS - 1));
        }
        if (!(brakeReleaseMs >= 0) || brakeReleaseMs > 1000 || !(brakeEngageMs >= 0) || brakeEngageMs > 1000)
        {
            throw new IllegalArgumentException("brakeReleaseMs " + brakeReleaseMs + " and brakeEngageMs " +
                brakeEngageMs + " must be 0..1000");
        }
        if (latencyFrom < 0 || latencyNanos < 0 ||
            latencyNanos / (TimeUnit.SECONDS.toNanos(1) / Math.max(1, rateHz)) >= PlantApp.COMMAND_SLOTS / 2)
        {
            throw new IllegalArgumentException("latencyFrom " + latencyFrom + " and latencyNanos " +
                latencyNanos + " must be >= 0, the latency under " + PlantApp.COMMAND_SLOTS / 2 + " periods");
        }
        if (!(quickStopRadPerS2 > 0))
        {
            throw new IllegalArgumentException("quickStopRadPerS2 " + quickStopRadPerS2 + " must be > 0");
        }
        if (rateHz < RateCheck.MIN_RATE_HZ || rateHz > RateCheck.MAX_RATE_HZ)
        {
            throw new IllegalArgumentException("rateHz " + rateHz + " is not " + RateCheck.MIN_RATE_HZ + ".." +
                RateCheck.MAX_RATE_HZ);
        }
        if (cycles < 0 || dropoutFrom < 0 || dropoutTo < dropoutFrom)
        {
            throw new IllegalArgumentException("cycles, dropoutFrom and dropoutTo must be >= 0, dropoutTo >= " +
                "dropoutFrom (got " + cycles + ", " + dropoutFrom + ", " + dropoutTo + ")");
        }
        if (priority < 0 || priority > 99)
        {
            throw new IllegalArgumentException("priority " + priority + " is not 0..99");
        }
    }

    /**
     * @return a new axis of the chosen model.
     */
    public SimulatedAxis newAxis()
    {
        return PlantApp.MODEL_REALISTIC.equals(model) ? new RealisticAxisPlant(RealisticAxisParameters.standard()) :
            new AxisPlant(AxisParameters.standard());
    }
}
