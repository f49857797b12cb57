package io.rfmrt.cli.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.exporter.httpserver.HttpErrorHandlingPolicy;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Failures;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.cli.rfm.RfmCommand;
import io.rfmrt.rfm.sim.SimNetwork;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sun.misc.Signal;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rfmrt exporter}: serves the counters of every node and bridge of this host on {@code /metrics} for
 * Prometheus (docs/metrics.md), until SIGTERM/SIGINT. Each scrape reads the counters files and bridge files as
 * {@code rfmrt stat} does, on the HTTP server's own thread: a plain process at SCHED_OTHER that maps nothing
 * writable of a node's and never signals one.
 */
@Command(name = "exporter", mixinStandardHelpOptions = true,
    description = "Serve the counters of this host's nodes and bridges on /metrics for Prometheus, until " +
        "SIGTERM/SIGINT.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {"0:stopped by SIGTERM/SIGINT", "1:the address cannot be listened on", ExitCodes.LIST_USAGE})
public final class ExporterCommand extends RfmCommand.RootCommand
{
    /** Where Prometheus exporters of this kind listen by default (the port is OpenTelemetry's exporter's). */
    static final String LISTEN_DEFAULT = "127.0.0.1:9464";

    private static final Pattern ADDRESS = Pattern.compile("^(\\[[^\\]]+\\]|[^:]+):([0-9]{1,5})$");

    @Option(names = "--listen", defaultValue = LISTEN_DEFAULT, paramLabel = "HOST:PORT",
        description = "Address to serve /metrics on; port 0 picks a free one (default ${DEFAULT-VALUE}).")
    String listen;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter out = out();
        final PrintWriter err = spec.commandLine().getErr();
        final Matcher m = ADDRESS.matcher(listen);
        if (!m.matches() || Integer.parseInt(m.group(2)) > 65535)
        {
            throw new UsageException("--listen " + SimNetwork.quote(listen) + " is not HOST:PORT (port 0-65535)");
        }
        final String host = m.group(1).startsWith("[") ? m.group(1).substring(1, m.group(1).length() - 1) :
            m.group(1);
        final InetAddress address;
        try
        {
            address = InetAddress.getByName(host);
        }
        catch (final UnknownHostException ex)
        {
            throw new UsageException("--listen " + SimNetwork.quote(listen) + ": unknown host " + host);
        }
        final Path root = SimNetwork.root();
        final PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new Collector(root, err));
        final HTTPServer server;
        try
        {
            server = HTTPServer.builder().inetAddress(address).port(Integer.parseInt(m.group(2)))
                .registry(registry).errorHandlingPolicy(HttpErrorHandlingPolicy.builder().errorReporter(ex ->
                {
                    // a scraper that went away mid-answer, a file that vanished while read: one line each
                    err.println("rfmrt exporter: a scrape failed: " + Failures.describe(ex));
                    err.flush();
                }).build()).buildAndStart();
        }
        catch (final IOException ex)
        {
            err.println("rfmrt: --listen " + listen + ": cannot listen: " + ex.getMessage());
            return ExitCodes.ERROR;
        }
        final CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), signal -> stop.countDown());
        Signal.handle(new Signal("INT"), signal -> stop.countDown());
        try (server)
        {
            out.println("rfmrt exporter: serving http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" +
                server.getPort() + "/metrics from " + root);
            out.flush();
            stop.await();
        }
        out.println("rfmrt exporter: stopped");
        return ExitCodes.OK;
    }

    /** Reads the files on each scrape; each unreadable file is named on stderr once. */
    static final class Collector implements MultiCollector
    {
        private final Path root;
        private final PrintWriter err;
        private final Set<String> reported = ConcurrentHashMap.newKeySet();

        Collector(final Path root, final PrintWriter err)
        {
            this.root = root;
            this.err = err;
        }

        @Override
        public MetricSnapshots collect()
        {
            final CountersFiles.Reading reading = CountersFiles.read(root);
            for (final String problem : reading.unreadable())
            {
                if (reported.add(problem))
                {
                    err.println("rfmrt exporter: " + problem);
                    err.flush();
                }
            }
            return CounterMetrics.of(reading);
        }
    }
}
