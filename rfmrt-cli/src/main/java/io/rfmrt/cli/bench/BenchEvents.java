package io.rfmrt.cli.bench;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SharedMemoryFile;
import io.rfmrt.rfm.sim.SimNetwork;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Cross-process event latency: send → the waiting process runs, through an RFM event on the emulated network
 * and, as the floor, through a plain futex wake of the same shape.
 */
@Command(name = "events", mixinStandardHelpOptions = true,
    description = "Cross-process event latency (send -> waiter runs) beside a plain futex wake.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
final class BenchEvents implements Callable<Integer>
{
    /** Offset of the sender's time stamp in the shared memory of both modes. */
    static final int STAMP_OFFSET = 128;

    @Spec
    CommandSpec spec;

    @Option(names = "--count", defaultValue = "10000", paramLabel = "K",
        description = "Events per mode (default ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--rate", defaultValue = "1000", paramLabel = "HZ",
        description = "Events per second (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception
    {
        if (count < 100 || rate < 1 || rate > 100_000)
        {
            throw new UsageException("--count must be at least 100 and --rate 1..100000");
        }
        final String network = "bench-" + ProcessHandle.current().pid();
        final List<EventMode> modes = new ArrayList<>();
        final Progress progress = Progress.steps(spec.commandLine().getErr(), 2, count / rate + 1);
        try (SimNetwork net = SimNetwork.create(network, 1 << 20))
        {
            progress.step(String.format("rfm-event: %d events at %d Hz ...", count, rate));
            modes.add(new EventMode("rfm-event", Histograms.Percentiles.of(runRfm(network))));
            progress.step(String.format("plain-futex: %d events at %d Hz ...", count, rate));
            modes.add(new EventMode("plain-futex", Histograms.Percentiles.of(runFutex(network, net.dir()))));
            progress.finish();
        }
        finally
        {
            SimNetwork.destroy(network, true);
        }
        final PrintWriter out = spec.commandLine().getOut();
        if (json)
        {
            out.println(ChildResult.json(new Result("events", ZonedDateTime.now().toString(),
                MachineInfo.describe(), count, rate, modes)));
        }
        else
        {
            out.printf("cross-process event latency, send -> waiter runs, %d events at %d Hz (microseconds)%n",
                count, rate);
            out.printf("%-12s %8s %8s %8s %8s %8s %8s%n", "mode", "count", "p50", "p90", "p99", "p99.9", "max");
            for (final EventMode m : modes)
            {
                final Histograms.Percentiles p = m.percentiles();
                out.printf("%-12s %8s %8s %8s %8s %8s %8s%n", m.mode(), p.count(), p.p50Us(), p.p90Us(), p.p99Us(),
                    p.p999Us(), p.maxUs());
            }
            out.printf("p50 ratio rfm-event / plain-futex: %.2f%n",
                modes.get(0).percentiles().p50Us() / Math.max(0.1, modes.get(1).percentiles().p50Us()));
        }
        return ExitCodes.OK;
    }

    /**
     * What {@code bench events --json} prints.
     *
     * @param benchmark "events".
     * @param date      when.
     * @param machine   the machine it ran on.
     * @param count     events per mode.
     * @param rateHz    events per second.
     * @param modes     each mode's latency.
     */
    record Result(String benchmark, String date, MachineInfo machine, int count, int rateHz, List<EventMode> modes)
    {
    }

    /**
     * One mode's latency, send to the waiter running.
     *
     * @param mode        {@code rfm-event} or {@code plain-futex}.
     * @param percentiles its percentiles.
     */
    record EventMode(String mode, @JsonUnwrapped Histograms.Percentiles percentiles)
    {
    }

    private Histogram runRfm(final String network) throws Exception
    {
        try (RfmDevice sender = RfmDevices.open("sim:" + network + "?node=1"))
        {
            sender.enableEvent(EventType.INTR2);
            final Process peer = ChildJvm.startInternal("bench-peer", "rfm", network, Integer.toString(count));
            final BufferedReader lines = reader(peer);
            expect(lines, "ready");
            final EventInfo ack = new EventInfo();
            final long period = TimeUnit.SECONDS.toNanos(1) / rate;
            long next = System.nanoTime() + period;
            for (int i = 1; i <= count; i++)
            {
                LockSupport.parkNanos(next - System.nanoTime());
                next += period;
                sender.window().putLongRelease(STAMP_OFFSET, System.nanoTime());
                final RfmStatus sent = sender.sendEvent(2, EventType.INTR1, i);
                if (sent != RfmStatus.SUCCESS ||
                    sender.awaitEvent(EventType.INTR2, TimeUnit.SECONDS.toNanos(10), ack) != RfmStatus.SUCCESS)
                {
                    peer.destroyForcibly();
                    throw new IllegalStateException("rfm-event mode: event " + i + " was not answered (" +
                        sent + ")");
                }
            }
            return finish(peer, lines);
        }
    }

    Histogram runFutex(final String network, final Path dir) throws Exception
    {
        final Path file = dir.resolve("futex-bench");
        final SharedMemoryFile map = SharedMemoryFile.create(file, 4096, "futex benchmark file");
        try
        {
            final UnsafeBuffer shared = map.buffer();
            final Process peer = ChildJvm.startInternal("bench-peer", "futex", file.toString(), Integer.toString(count));
            final BufferedReader lines = reader(peer);
            expect(lines, "ready");
            final long period = TimeUnit.SECONDS.toNanos(1) / rate;
            long next = System.nanoTime() + period;
            for (int i = 1; i <= count; i++)
            {
                LockSupport.parkNanos(next - System.nanoTime());
                next += period;
                shared.putLongRelease(STAMP_OFFSET, System.nanoTime());
                shared.getAndAddInt(0, 1);
                map.wake(0, 1);
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                int acked;
                while ((acked = shared.getIntVolatile(64)) != i)
                {
                    if (System.nanoTime() > deadline)
                    {
                        peer.destroyForcibly();
                        throw new IllegalStateException("plain-futex mode: event " + i + " was not answered");
                    }
                    map.await(64, acked);
                }
            }
            return finish(peer, lines);
        }
        finally
        {
            map.close();
            // not one of the network's own files: destroying the network would leave it, and the folder with it
            Files.deleteIfExists(file);
        }
    }

    private static BufferedReader reader(final Process peer)
    {
        return new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
    }

    private static void expect(final BufferedReader lines, final String expected) throws Exception
    {
        final String line = lines.readLine();
        if (!expected.equals(line))
        {
            throw new IllegalStateException("benchmark peer said '" + line + "', expected '" + expected + "'");
        }
    }

    private static Histogram finish(final Process peer, final BufferedReader lines) throws Exception
    {
        final String line = lines.readLine();
        if (!peer.waitFor(30, TimeUnit.SECONDS) || line == null || !line.startsWith("histogram "))
        {
            peer.destroyForcibly();
            throw new IllegalStateException("benchmark peer ended without a result");
        }
        return Histograms.decode(line.substring("histogram ".length()));
    }
}
