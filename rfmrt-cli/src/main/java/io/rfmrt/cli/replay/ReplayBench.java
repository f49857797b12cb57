package io.rfmrt.cli.replay;

import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Folders;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayFilter;
import io.rfmrt.runtime.replay.ReplaySummary;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * Replay throughput benchmark ({@code rfmrt replay-bench}, hidden; or run this class's main): writes N FRAME
 * records (32-byte payload) with the journal, then times {@link Replay#run} over them (summary only) a few times and
 * prints records/s of each run and the best.
 */
@Command(name = "replay-bench", hidden = true, mixinStandardHelpOptions = true,
    description = "Time the replay summary over N journalled frames.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class ReplayBench implements Callable<Integer>
{
    @Option(names = "--records", defaultValue = "1000000", paramLabel = "N",
        description = "FRAME records to journal (default ${DEFAULT-VALUE}).")
    long records;

    @Option(names = "--runs", defaultValue = "3", paramLabel = "R",
        description = "Timed summary passes (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where the journal goes (default: a temp folder).")
    Path dir;

    /**
     * @param args command line.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new ReplayBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter out = new PrintWriter(System.out, true);
        final Path scratch = dir == null ? Files.createTempDirectory("rfmrt-replay-bench") : null;
        final Path journalDir = (dir == null ? scratch : dir).resolve("j");
        try
        {
            return measure(out, journalDir);
        }
        finally
        {
            if (scratch != null)
            {
                // a temporary journal of 1M records is over 100 MB: do not leave it behind
                Folders.deleteTree(scratch);
            }
        }
    }

    private int measure(final PrintWriter out, final Path journalDir) throws Exception
    {
        final long t0 = System.nanoTime();
        try (Journal journal = Journal.start(JournalConfig.of(journalDir, 2).withRingCapacityBytes(64 << 20)))
        {
            final JournalWriter w = journal.newWriter("bench");
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[32]);
            long send = System.nanoTime();
            for (long seq = 1; seq <= records; seq++)
            {
                send += 1000;
                while (!w.frame(seq, 1, 0, 0, send, send + 9_000 + (seq & 1023), send + 11_000, send + 14_000,
                    send + 20_000 + (seq & 4095), payload, 0, 32))
                {
                    Thread.onSpinWait();
                }
            }
        }
        out.printf(Locale.ROOT, "wrote %,d FRAME records in %.2f s to %s%n", records, (System.nanoTime() - t0) / 1e9,
            journalDir);
        double best = 0;
        for (int i = 0; i < runs; i++)
        {
            final long start = System.nanoTime();
            final ReplaySummary summary = Replay.run(journalDir, ReplayFilter.ALL, List.of());
            final double seconds = (System.nanoTime() - start) / 1e9;
            final double rate = summary.recordsRead() / seconds;
            best = Math.max(best, rate);
            out.printf(Locale.ROOT, "run %d: %,d records in %.3f s = %,.0f records/s%n", i + 1, summary.recordsRead(),
                seconds, rate);
        }
        out.printf(Locale.ROOT, "best: %,.0f records/s%n", best);
        return 0;
    }
}
