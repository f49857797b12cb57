package io.rfmrt.cli.bench;

import io.rfmrt.cli.bench.peer.PeerTransport;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.rfm.SharedMemoryFile;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What {@code bench peers} and {@code bench hosts} share: named rows run at several rates (the run length and rates
 * they accept, the rows a run measures, the failed rows named), the targets they judge the rows by, the sending
 * side's figures, and the control file a row's sender and receiver share.
 */
final class BenchRows
{
    private static final int CONTROL_BYTES = 4096;
    private static final String CONTROL_FILE = "control";
    private static final String CONTROL_WHAT = "bench control file";

    private BenchRows()
    {
    }

    /**
     * What the result of {@code bench peers} and {@code bench hosts} starts with (unwrapped into it).
     *
     * @param benchmark its name.
     * @param machine   the machine it ran on.
     * @param date      when.
     * @param seconds   each row's length.
     * @param ratesHz   the rates.
     * @param sizeBytes the frames' size.
     * @param sender    the sender's pacing.
     */
    record RunHeader(String benchmark, MachineInfo machine, String date, int seconds, List<Integer> ratesHz,
        int sizeBytes, String sender)
    {
        /**
         * @param benchmark the bench's name.
         * @param seconds   each row's length.
         * @param rates     the rates.
         * @return the header of a run on this machine, now, with the peers' frames and paced sender.
         */
        static RunHeader of(final String benchmark, final int seconds, final List<Integer> rates)
        {
            return new RunHeader(benchmark, MachineInfo.describe(), ZonedDateTime.now().toString(), seconds, rates,
                PeerTransport.FRAME_BYTES, BenchRun.UNIFORM_JITTER);
        }
    }

    /**
     * Name the failed rows on stderr, then print the result: its JSON with {@code --json}, else the table.
     *
     * @param header  the result's header (its bench's name).
     * @param rows    the rows.
     * @param result  the result, for {@code --json}.
     * @param json    whether {@code --json} was given.
     * @param command the command's line, for its stdout and stderr.
     * @param table   prints the table.
     * @return exit code: 1 when a row failed.
     */
    static int finish(final RunHeader header, final List<? extends RateRow> rows, final Object result,
        final boolean json, final CommandLine command, final Consumer<PrintWriter> table)
    {
        final int exit = failures(header.benchmark(), rows, command.getErr());
        if (json)
        {
            command.getOut().println(ChildResult.json(result));
        }
        else
        {
            table.accept(command.getOut());
        }
        return exit;
    }

    /**
     * The first parameters of a row's child process ({@code bench-peer-receiver}, {@code bench-hosts-sender}): the
     * transport's kind, its variant and the row's folder. A picocli mixin.
     */
    static final class ChildParameters
    {
        @Parameters(index = "0")
        String kind;

        @Parameters(index = "1")
        String variant;

        @Parameters(index = "2")
        Path dir;

        /**
         * @param command the child's name, for the refusal.
         * @return the transport of the kind.
         * @throws UsageException naming an unknown kind.
         */
        PeerTransport transport(final String command)
        {
            return BenchPeers.transport(kind, command);
        }

        /**
         * @return the row's control file, as the bench made it.
         */
        SharedMemoryFile openControl()
        {
            return BenchRows.openControl(dir);
        }
    }

    /**
     * A row of a bench that runs named rows at several rates.
     */
    interface RateRow
    {
        /**
         * @return the row's name.
         */
        String name();

        /**
         * @return its rate, Hz.
         */
        int rateHz();

        /**
         * @return why it failed, or null.
         */
        String failure();
    }

    /**
     * @param bench the bench's name.
     * @param rows  its rows.
     * @param err   where each failed row is named.
     * @return exit code: 1 when a row failed.
     */
    static int failures(final String bench, final List<? extends RateRow> rows, final PrintWriter err)
    {
        int exit = ExitCodes.OK;
        for (final RateRow r : rows)
        {
            if (r.failure() != null)
            {
                err.println("rfmrt bench " + bench + ": " + r.name() + " at " + r.rateHz() + " Hz failed: " +
                    r.failure());
                exit = ExitCodes.ERROR;
            }
        }
        err.flush();
        return exit;
    }

    /**
     * A target of a comparison, as {@code bench peers} and {@code bench hosts} print it.
     *
     * @param target  what it asks.
     * @param met     whether it was met; null when a row it needs is missing or failed.
     * @param figures the figures it was judged on.
     */
    record RowTarget(String target, Boolean met, String figures)
    {
        static RowTarget unmeasured(final String target)
        {
            return new RowTarget(target, null, "a row is missing or failed");
        }

        /**
         * @param target what it asks.
         * @param p50    the row's p50, µs.
         * @param other  the p50 it is held to, µs.
         * @return met when the row's p50 is within 1.5 times the other.
         */
        static RowTarget ratio(final String target, final Object p50, final Object other)
        {
            final double ratio = ((Number)p50).doubleValue() / Math.max(0.1, ((Number)other).doubleValue());
            return new RowTarget(target, ratio <= 1.5, String.format("p50 %s vs %s us, ratio %.2f", p50, other, ratio));
        }

        /**
         * @param target what it asks.
         * @param what   the figure compared, e.g. "p99".
         * @param value  the row's figure.
         * @param other  the figure it is held to.
         * @param limit  the largest ratio that meets the target.
         * @return met when {@code value} is within {@code limit} times {@code other}.
         */
        static RowTarget within(final String target, final String what, final double value, final double other,
            final double limit)
        {
            final double ratio = value / Math.max(0.1, other);
            return new RowTarget(target, ratio <= limit, String.format(Locale.ROOT, "%s %.1f vs %.1f, ratio %.2f",
                what, value, other, ratio));
        }

        /**
         * @return the line the table ends with.
         */
        String line()
        {
            return String.format("target: %s: %s (%s)", target, met == null ? "not measured" : met ? "met" : "MISSED",
                figures);
        }
    }

    /**
     * What the sending side of a row did: {@code bench-hosts-sender}'s result line, and the sender thread's figures
     * in a {@code bench peers} row.
     *
     * @param sent       frames sent.
     * @param sendRateHz the rate they were sent at.
     * @param refused    frames the transport refused.
     * @param cpuPct     the sending process's CPU beyond what is counted elsewhere, % of one core; null when the
     *                   sending took no time.
     * @param failure    why the sender failed, or null.
     */
    record SendFigures(long sent, long sendRateHz, long refused, Double cpuPct, String failure)
    {
        /**
         * @param sent     from {@link BenchPeers#send}: frames sent, ns spent sending, frames refused.
         * @param cpuNanos CPU time to count, ns.
         * @param failure  why the sender failed, or null.
         * @return the figures.
         */
        static SendFigures of(final long[] sent, final long cpuNanos, final String failure)
        {
            return new SendFigures(sent[0], sent[1] <= 0 ? 0 : Math.round(sent[0] * 1e9 / sent[1]), sent[2],
                sent[1] <= 0 ? null : Math.round(1000.0 * cpuNanos / sent[1]) / 10.0, failure);
        }
    }

    /**
     * The control file a row's sender and receiver share: the number of frames sent, written once at the end of the
     * sending ({@link BenchPeers#TOTAL_OFFSET}).
     *
     * @param dir the row's folder.
     * @return the file, made anew.
     */
    static SharedMemoryFile createControl(final Path dir)
    {
        return SharedMemoryFile.create(dir.resolve(CONTROL_FILE), CONTROL_BYTES, CONTROL_WHAT);
    }

    /**
     * @param dir the row's folder.
     * @return its control file ({@link #createControl}), as the bench made it.
     */
    static SharedMemoryFile openControl(final Path dir)
    {
        return SharedMemoryFile.open(dir.resolve(CONTROL_FILE), CONTROL_WHAT);
    }

    /**
     * The run length and the rates of {@code bench peers} and {@code bench hosts}. A picocli mixin.
     */
    static final class RateOptions
    {
        @Option(names = "--seconds", defaultValue = "10", paramLabel = "S",
            description = "Measured seconds per row and rate, after one second of warm-up, 1..600 (default " +
                "${DEFAULT-VALUE}).")
        int seconds;

        @Option(names = "--rates", split = ",", paramLabel = "HZ", defaultValue = "1000,10000",
            description = "Frame rates, 1..100000 each (default ${DEFAULT-VALUE}).")
        List<Integer> rates;

        /**
         * Refuse a run length or a rate outside what the row benches measure.
         *
         * @throws UsageException naming the options' ranges.
         */
        void check()
        {
            if (seconds < 1 || seconds > 600 || rates.isEmpty() || rates.stream().anyMatch(r -> r < 1 || r > 100_000))
            {
                throw new UsageException("--seconds 1..600, --rates 1..100000 Hz each");
            }
        }
    }

    /**
     * The rows a run measures: all of them, or those named, in their own order.
     *
     * @param all     every row.
     * @param only    the names asked for, or null for all.
     * @param name    a row's name.
     * @param unknown the refusal's start for a name no row has (the name follows in quotes).
     * @param <R>     the row type.
     * @return the rows to run.
     */
    static <R> List<R> select(final List<R> all, final List<String> only,
        final Function<R, String> name, final String unknown)
    {
        if (only != null)
        {
            for (final String n : only)
            {
                if (all.stream().noneMatch(r -> name.apply(r).equals(n)))
                {
                    throw new UsageException(unknown + " '" + n + "'");
                }
            }
        }
        final List<R> rows = new ArrayList<>();
        for (final R row : all)
        {
            if (only == null || only.contains(name.apply(row)))
            {
                rows.add(row);
            }
        }
        return rows;
    }
}
