package io.rfmrt.control.excite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What to inject, when and where, as a user writes it: {@code KIND:key=value,...}, e.g.
 * <pre>
 *   chirp:point=torque,f0=5,f1=400,amp=0.1,seconds=4,start=1
 *   step:point=position,amp=0.01,seconds=0.5
 *   prbs:point=velocity,amp=2,bit=2,seed=7,seconds=3
 * </pre>
 * Keys (a number may not be NaN or infinite):
 * <pre>
 *   every kind  point=torque|velocity|position  where it is added (default torque; {@link InjectionPoint})
 *               amp=A        the amplitude, in the point's unit (N·m, rad/s, rad), &gt; 0 (required)
 *               seconds=T    how long the signal lasts, s (default 4)
 *               start=S      when it starts: S seconds of sensor cycles after the controller's first frame (default 1)
 *               fade=MS      after it ends or is stopped, the injection ramps to 0 over this long, ms (default 20)
 *   chirp       f0=HZ f1=HZ  the sweep's start and end frequencies (required; below half the loop rate)
 *               sweep=log|lin (default log)
 *   prbs        bit=N        cycles per bit (default 1)
 *               seed=N       the shift register's start (default 1)
 * </pre>
 * {@link #parse} names the first bad key or value in one line; {@link #problemFor} checks what depends on the loop
 * rate and the limits.
 *
 * @param kind         {@link #STEP}, {@link #CHIRP} or {@link #PRBS}.
 * @param point        where it is added.
 * @param amplitude    A, in the point's unit.
 * @param seconds      how long the signal lasts, s.
 * @param startSeconds when it starts, s of sensor cycles after the controller's first frame.
 * @param fadeMs       the ramp to 0 after it ends or is stopped, ms.
 * @param f0Hz         a chirp's start frequency, Hz (0 otherwise).
 * @param f1Hz         a chirp's end frequency, Hz (0 otherwise).
 * @param logarithmic  a chirp's sweep is logarithmic.
 * @param bitCycles    a PRBS's cycles per bit (0 otherwise).
 * @param seed         a PRBS's seed.
 */
public record ExcitationSpec(String kind, InjectionPoint point, double amplitude, double seconds, double startSeconds,
    double fadeMs, double f0Hz, double f1Hz, boolean logarithmic, int bitCycles, long seed)
{
    /** Kind: a step. */
    public static final String STEP = "step";
    /** Kind: a swept sine. */
    public static final String CHIRP = "chirp";
    /** Kind: a pseudo-random binary sequence. */
    public static final String PRBS = "prbs";
    /** Default duration, s. */
    public static final double SECONDS_DEFAULT = 4.0;
    /** Default start, s after the controller's first frame. */
    public static final double START_DEFAULT_SECONDS = 1.0;
    /** Default fade, ms. */
    public static final double FADE_DEFAULT_MS = 20.0;
    /** Longest signal, s. */
    public static final double SECONDS_MAX = 3600.0;

    private static final List<String> COMMON = List.of("point", "amp", "seconds", "start", "fade");
    private static final List<String> CHIRP_KEYS = List.of("f0", "f1", "sweep");
    private static final List<String> PRBS_KEYS = List.of("bit", "seed");

    /**
     * Read a spec.
     *
     * @param text {@code KIND:key=value,...}.
     * @return the spec.
     * @throws IllegalArgumentException one line, {@code excite: ...}, naming the bad kind, key or value.
     */
    public static ExcitationSpec parse(final String text)
    {
        final String s = text == null ? "" : text.trim();
        final int colon = s.indexOf(':');
        final String kind = (colon < 0 ? s : s.substring(0, colon)).trim().toLowerCase(Locale.ROOT);
        if (!STEP.equals(kind) && !CHIRP.equals(kind) && !PRBS.equals(kind))
        {
            throw bad("kind '" + kind + "' is not step, chirp or prbs (KIND:key=value,...)");
        }
        final Map<String, String> given = new LinkedHashMap<>();
        if (colon >= 0 && !s.substring(colon + 1).isBlank())
        {
            for (final String pair : s.substring(colon + 1).split(",", -1))
            {
                final int eq = pair.indexOf('=');
                final String key = (eq < 0 ? pair : pair.substring(0, eq)).trim();
                if (eq < 0)
                {
                    throw bad("'" + pair.trim() + "' is not key=value");
                }
                final boolean known = COMMON.contains(key) || CHIRP.equals(kind) && CHIRP_KEYS.contains(key) ||
                    PRBS.equals(kind) && PRBS_KEYS.contains(key);
                if (!known)
                {
                    throw bad("unknown key '" + key + "' for " + kind + " (keys: " + String.join(", ", keys(kind)) +
                        ")");
                }
                if (given.put(key, pair.substring(eq + 1).trim()) != null)
                {
                    throw bad("key '" + key + "' given twice");
                }
            }
        }
        final String pointName = given.getOrDefault("point", InjectionPoint.TORQUE.token());
        final InjectionPoint point = InjectionPoint.ofToken(pointName);
        if (point == null)
        {
            throw bad("point '" + pointName + "' is not torque, velocity or position");
        }
        if (!given.containsKey("amp"))
        {
            throw bad(kind + " needs amp=");
        }
        final double amp = positive(given, "amp");
        final double seconds = given.containsKey("seconds") ? positive(given, "seconds") : SECONDS_DEFAULT;
        if (seconds > SECONDS_MAX)
        {
            throw bad("seconds " + given.get("seconds") + " is above " + SECONDS_MAX);
        }
        final double start = given.containsKey("start") ? number(given, "start") : START_DEFAULT_SECONDS;
        if (start < 0 || start > SECONDS_MAX)
        {
            throw bad("start " + given.get("start") + " is not 0.." + SECONDS_MAX);
        }
        final double fade = given.containsKey("fade") ? number(given, "fade") : FADE_DEFAULT_MS;
        if (fade < 0 || fade > 10_000)
        {
            throw bad("fade " + given.get("fade") + " is not 0..10000 ms");
        }
        double f0 = 0;
        double f1 = 0;
        boolean log = false;
        int bit = 0;
        long seed = 0;
        if (CHIRP.equals(kind))
        {
            if (!given.containsKey("f0") || !given.containsKey("f1"))
            {
                throw bad("chirp needs f0= and f1=");
            }
            f0 = positive(given, "f0");
            f1 = positive(given, "f1");
            final String sweep = given.getOrDefault("sweep", "log");
            if (!"log".equals(sweep) && !"lin".equals(sweep))
            {
                throw bad("sweep '" + sweep + "' is not log or lin");
            }
            log = "log".equals(sweep);
            if (log && f0 == f1)
            {
                throw bad("a log sweep needs f0 " + f0 + " != f1 " + f1);
            }
        }
        else if (PRBS.equals(kind))
        {
            final double b = given.containsKey("bit") ? number(given, "bit") : 1;
            if (b != Math.rint(b) || b < 1 || b > 10_000)
            {
                throw bad("bit " + given.get("bit") + " is not a whole number of cycles 1..10000");
            }
            bit = (int)b;
            try
            {
                seed = Long.parseLong(given.getOrDefault("seed", "1"));
            }
            catch (final NumberFormatException ex)
            {
                throw bad("seed '" + given.get("seed") + "' is not a whole number");
            }
        }
        return new ExcitationSpec(kind, point, amp, seconds, start, fade, f0, f1, log, bit, seed);
    }

    /**
     * @param periodSeconds the loop period, s.
     * @param limits        what may be injected.
     * @return why this spec cannot run at that rate within those limits (one line, {@code excite: ...}), or null.
     */
    public String problemFor(final double periodSeconds, final ExcitationLimits limits)
    {
        final String refused = limits.refusal(point, amplitude);
        if (refused != null)
        {
            return "excite: " + refused;
        }
        final double nyquist = 0.5 / periodSeconds;
        if (CHIRP.equals(kind) && (f0Hz >= nyquist || f1Hz >= nyquist))
        {
            return String.format(Locale.ROOT, "excite: f0 %s and f1 %s must be below half the loop rate, %s Hz",
                f0Hz, f1Hz, nyquist);
        }
        if (cycles(periodSeconds) < 2)
        {
            return "excite: seconds " + seconds + " is under two loop periods";
        }
        return null;
    }

    /**
     * @param periodSeconds the loop period, s.
     * @return the signal's length, cycles.
     */
    public long cycles(final double periodSeconds)
    {
        return Math.round(seconds / periodSeconds);
    }

    /**
     * Make the signal (off the real-time path: a PRBS computes its bits here).
     *
     * @param periodSeconds the loop period, s.
     * @return the signal.
     */
    public ExcitationSignal signal(final double periodSeconds)
    {
        final long n = cycles(periodSeconds);
        return switch (kind)
        {
            case STEP -> new StepSignal(amplitude, n);
            case CHIRP -> new ChirpSignal(amplitude, f0Hz, f1Hz, logarithmic, n, periodSeconds);
            default -> new PrbsSignal(amplitude, bitCycles, n, seed);
        };
    }

    /**
     * @return the spec in its canonical form (every key, {@link #parse} reads it back to an equal spec).
     */
    @Override
    public String toString()
    {
        final StringBuilder b = new StringBuilder(kind).append(":point=").append(point.token())
            .append(",amp=").append(amplitude).append(",seconds=").append(seconds).append(",start=")
            .append(startSeconds).append(",fade=").append(fadeMs);
        if (CHIRP.equals(kind))
        {
            b.append(",f0=").append(f0Hz).append(",f1=").append(f1Hz).append(",sweep=").append(logarithmic ? "log" :
                "lin");
        }
        else if (PRBS.equals(kind))
        {
            b.append(",bit=").append(bitCycles).append(",seed=").append(seed);
        }
        return b.toString();
    }

    private static List<String> keys(final String kind)
    {
        final List<String> all = new ArrayList<>(COMMON);
        all.addAll(CHIRP.equals(kind) ? CHIRP_KEYS : PRBS.equals(kind) ? PRBS_KEYS : List.of());
        return all;
    }

    private static double positive(final Map<String, String> given, final String key)
    {
        final double v = number(given, key);
        if (!(v > 0))
        {
            throw bad(key + " " + given.get(key) + " must be > 0");
        }
        return v;
    }

    private static double number(final Map<String, String> given, final String key)
    {
        final String text = given.get(key);
        try
        {
            final double v = Double.parseDouble(text);
            if (Double.isFinite(v))
            {
                return v;
            }
        }
        catch (final NumberFormatException ex)
        {
            // named below
        }
        throw bad(key + " '" + text + "' is not a number");
    }

    private static IllegalArgumentException bad(final String problem)
    {
        return new IllegalArgumentException("excite: " + problem);
    }
}
