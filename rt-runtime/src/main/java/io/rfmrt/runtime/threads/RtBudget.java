package io.rfmrt.runtime.threads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The kernel's RT budget: of every {@code kernel.sched_rt_period_us}, the RT threads of a cpu may run
 * {@code kernel.sched_rt_runtime_us}; past it the kernel stops them until the period ends (RT throttling). The
 * default, 950000 of 1000000 µs, leaves 50 ms a second to everything else, so a cpu whose RT threads want more than
 * 95 % of it has them stopped for up to 50 ms at a time. A runtime of -1 is no budget (no throttling).
 *
 * @param runtimeUs the runtime per period, µs; negative: unlimited.
 * @param periodUs  the period, µs (positive).
 */
public record RtBudget(long runtimeUs, long periodUs)
{
    /** The sysctl of the runtime. */
    public static final String RUNTIME_SYSCTL = "kernel.sched_rt_runtime_us";
    /** The sysctl of the period. */
    public static final String PERIOD_SYSCTL = "kernel.sched_rt_period_us";
    /** Where the runtime is read, under a sysroot. */
    public static final String RUNTIME_FILE = "proc/sys/kernel/sched_rt_runtime_us";
    /** Where the period is read, under a sysroot. */
    public static final String PERIOD_FILE = "proc/sys/kernel/sched_rt_period_us";
    /** The kernel's default period, µs, when the period file cannot be read. */
    public static final long PERIOD_DEFAULT_US = 1_000_000;
    /** What lifts the budget: the tuning script's option, or the sysctl itself. */
    public static final String HOW_TO_LIFT = "tuning/bin/rfmrt-isolate --rt-runtime-unlimited, or sysctl -w " +
        RUNTIME_SYSCTL + "=-1";

    /** No budget: RT threads are never throttled. */
    public static final RtBudget UNLIMITED = new RtBudget(-1, PERIOD_DEFAULT_US);

    /**
     * @throws IllegalArgumentException for a period that is not positive.
     */
    public RtBudget
    {
        if (periodUs <= 0)
        {
            throw new IllegalArgumentException(PERIOD_SYSCTL + " " + periodUs + " is not positive");
        }
    }

    /**
     * @return whether RT threads run without a budget (runtime -1).
     */
    public boolean unlimited()
    {
        return runtimeUs < 0;
    }

    /**
     * @return the share of each cpu RT threads may use, 0..1 (1 when unlimited).
     */
    public double share()
    {
        return unlimited() ? 1.0 : Math.min(1.0, (double)runtimeUs / periodUs);
    }

    /**
     * @return how long the kernel stops a cpu's RT threads that used the whole runtime, µs (0 when unlimited).
     */
    public long throttleUs()
    {
        return unlimited() ? 0 : Math.max(0, periodUs - runtimeUs);
    }

    /**
     * @return the two sysctls and their values, as a user would look them up.
     */
    public String describe()
    {
        return String.format(Locale.ROOT, "%s %d of %s %d", RUNTIME_SYSCTL, runtimeUs, PERIOD_SYSCTL, periodUs);
    }

    /**
     * Parse the two files' first lines.
     *
     * @param runtimeText the runtime's text.
     * @param periodText  the period's text, or {@code null} when it could not be read (the kernel's default then).
     * @return the budget.
     * @throws IllegalArgumentException naming the sysctl and its value when either is not a number.
     */
    public static RtBudget parse(final String runtimeText, final String periodText)
    {
        final long runtime = number(RUNTIME_SYSCTL, runtimeText);
        final long period = periodText == null ? PERIOD_DEFAULT_US : number(PERIOD_SYSCTL, periodText);
        return new RtBudget(runtime, period);
    }

    /**
     * Read the budget under a sysroot ({@code /} on a real machine; a test's tree otherwise).
     *
     * @param sysroot the root.
     * @return the budget.
     * @throws IllegalArgumentException naming the file when the runtime cannot be read, or a value that is not a number.
     */
    public static RtBudget read(final Path sysroot)
    {
        final Path runtime = sysroot.resolve(RUNTIME_FILE);
        final String runtimeText;
        try
        {
            runtimeText = firstLine(runtime);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(runtime + " cannot be read (" + ex.getClass().getSimpleName() + ")");
        }
        String periodText;
        try
        {
            periodText = firstLine(sysroot.resolve(PERIOD_FILE));
        }
        catch (final IOException ex)
        {
            periodText = null;
        }
        return parse(runtimeText, periodText);
    }

    private static String firstLine(final Path file) throws IOException
    {
        // a sysctl is one short line; anything longer is not one
        final byte[] bytes;
        try (var in = Files.newInputStream(file))
        {
            bytes = in.readNBytes(64);
        }
        final String text = new String(bytes, StandardCharsets.US_ASCII);
        final int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }

    private static long number(final String sysctl, final String text)
    {
        final String t = text == null ? "" : text.strip();
        try
        {
            return Long.parseLong(t);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(sysctl + " '" + (t.length() > 32 ? t.substring(0, 32) + "..." : t) +
                "' is not a number");
        }
    }
}
