package io.rfmrt.cli.bench;

import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Converters;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rfmrt bench burst}: bursts of frames sent back to back (far more than the card's 127-entry event FIFO),
 * then silence, repeated, through each mode: every frame must arrive, because each wake drains the ring.
 */
@Command(name = "burst", mixinStandardHelpOptions = true,
    description = "Bursts of frames back to back, then silence, repeated: frames lost per mode.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
final class BenchBurst implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--frames", defaultValue = "2000", paramLabel = "N", description = "Frames per burst, 1..16288 " +
        "(default ${DEFAULT-VALUE}).")
    int frames;

    @Option(names = "--bursts", defaultValue = "20", paramLabel = "N", description = "Bursts (default " +
        "${DEFAULT-VALUE}); the first one is warm-up for the latency figures, not for the count of lost frames.")
    int bursts;

    @Option(names = "--gap", defaultValue = "100ms", converter = Converters.Duration.class, paramLabel = "DURATION",
        description = "Silence after each burst (default ${DEFAULT-VALUE}).")
    long gapNanos;

    @Mixin
    BenchRun.ModeRows modeRows;

    @Option(names = "--size", defaultValue = "64", paramLabel = "BYTES",
        description = "Payload bytes (default ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception
    {
        if (frames < 1 || frames > BenchRun.CHANNEL.slots() - 96 || bursts < 2 || bursts > 10_000 || gapNanos < 0 ||
            gapNanos > 10_000_000_000L || size < 8 || size > BenchRun.CHANNEL.maxPayload())
        {
            throw new UsageException("--frames 1.." + (BenchRun.CHANNEL.slots() - 96) +
                ", --bursts 2..10000, --gap 0..10s, --size 8.." + BenchRun.CHANNEL.maxPayload());
        }
        final List<String> modes = modeRows.selected(spec);
        final PrintWriter out = spec.commandLine().getOut();
        final List<BenchRun.ModeRun> results = new ArrayList<>();
        final Progress progress = Progress.steps(spec.commandLine().getErr(), modes.size(),
            bursts * gapNanos / 1_000_000_000L + BenchRun.STEP_OVERHEAD_SECONDS);
        for (final String name : modes)
        {
            progress.step(String.format("burst %s: %d x %d frames ...", name, bursts, frames));
            results.add(BenchRun.run(BenchRun.mode(name), BenchRun.Traffic.burst(frames, bursts, gapNanos, size)));
        }
        progress.finish();
        final Result result = new Result("burst", MachineInfo.describe(), ZonedDateTime.now().toString(), frames,
            bursts, gapNanos / 1e6, size, results);
        final int exit = BenchCompare.failures(results, spec.commandLine().getErr());
        if (json)
        {
            out.println(ChildResult.json(result));
            return exit;
        }
        out.printf("%n%d bursts of %d back-to-back %d-byte frames, %.0f ms apart; latency publish -> handler end " +
            "(us, first burst left out)%n", bursts, frames, size, gapNanos / 1e6);
        out.printf("%-18s %8s %8s %6s %8s %8s %9s %9s %8s %6s%n", "mode", "sent", "frames", "lost", "p50", "p99",
            "max", "fifo-ovf", "events", "cpu%");
        for (final BenchRun.ModeRun m : results)
        {
            if (m.failure() != null)
            {
                out.printf("%-18s FAILED: %s%n", m.mode(), m.failure());
                continue;
            }
            out.printf("%-18s %8s %8s %6s %8s %8s %9s %9s %8s %6s%n", m.mode(), m.sent(), m.figures().frames(),
                m.figures().lost(), m.figures().p50Us(), m.figures().p99Us(), m.figures().maxUs(),
                m.counts().fifoOverflows(), m.counts().events(), m.figures().cpuPct());
        }
        out.println("fifo-ovf = events the card's 127-entry FIFO could not hold (their frames are still drained); " +
            "events = doorbells taken by the ISR-wake thread");
        return exit;
    }

    /**
     * What {@code bench burst --json} prints.
     *
     * @param benchmark      "burst".
     * @param machine        the machine it ran on.
     * @param date           when.
     * @param framesPerBurst frames per burst.
     * @param bursts         bursts.
     * @param gapMs          silence after each burst, ms.
     * @param sizeBytes      the frames' payload.
     * @param modes          each mode's run.
     */
    record Result(String benchmark, MachineInfo machine, String date, int framesPerBurst, int bursts,
        double gapMs, int sizeBytes, List<BenchRun.ModeRun> modes)
    {
    }
}
