package io.rfmrt.cli.demo;

import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.Folders;
import io.rfmrt.cli.common.Netns;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeStatus;
import io.rfmrt.rfm.sim.SimNetwork;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code rfmrt demo --hosts}: two emulated hosts for the demo's two nodes. Two network namespaces on a veth pair
 * ({@link Netns}), an emulator root per host in {@code /dev/shm}, and an {@code rfmrt bridge} in each namespace
 * joining the two copies of the demo's network; the plant runs on host A, the controller on host B. Closing stops
 * the bridges and removes the namespaces and the roots.
 */
final class DemoHosts implements AutoCloseable
{
    static final int PLANT_HOST = 0;
    static final int CONTROLLER_HOST = 1;
    private static final int PORT = 40456;
    private static final String[] NAMES = {"A", "B"};

    private final String network;
    private final Netns netns;
    private final Path[] roots;
    private final Process[] bridges = new Process[2];

    private DemoHosts(final String network, final Netns netns, final Path[] roots)
    {
        this.network = network;
        this.netns = netns;
        this.roots = roots;
    }

    /**
     * Make the two hosts and start their bridges; return once both links are up.
     *
     * @param network the demo's network name.
     * @param outDir  the demo's folder: each bridge's lines go to {@code bridge-host-A.log}, {@code -B.log}.
     * @param console where to say what happens.
     * @return the hosts.
     */
    static DemoHosts start(final String network, final Path outDir, final PrintWriter console) throws Exception
    {
        final String unavailable = Netns.unavailable();
        if (unavailable != null)
        {
            throw new IllegalStateException("demo --hosts needs network namespaces: " + unavailable);
        }
        final String tag = "rfd" + ProcessHandle.current().pid() % 100_000;
        final Netns netns = Netns.create(tag, 2);
        final Path[] roots = {Path.of("/dev/shm", tag + "-hostA"), Path.of("/dev/shm", tag + "-hostB")};
        final DemoHosts hosts = new DemoHosts(network, netns, roots);
        try
        {
            for (int host = 0; host < 2; host++)
            {
                final int peer = 1 - host;
                final Path log = outDir.resolve("bridge-host-" + NAMES[host] + ".log");
                Files.deleteIfExists(log);
                hosts.bridges[host] = ChildJvm.builderOn(netns, host, roots[host], "bridge", "--network", network,
                    "--host-id", Integer.toString(host + 1), "--host-name", "demo-host-" + NAMES[host], "--channel",
                    "aeron:udp?endpoint=" + Netns.address(host) + ":" + PORT, "--peers",
                    (peer + 1) + "@" + Netns.address(peer) + ":" + PORT, "--size",
                    Long.toString(ControlFrames.LAYOUT.memorySize()))
                    .redirectOutput(log.toFile()).redirectErrorStream(true).start();
            }
            for (int host = 0; host < 2; host++)
            {
                final Path log = outDir.resolve("bridge-host-" + NAMES[host] + ".log");
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.exists(log) || !Files.readString(log).contains("CONVERGED"))
                {
                    if (!hosts.bridges[host].isAlive() || System.nanoTime() > deadline)
                    {
                        throw new IllegalStateException("the bridge of host " + NAMES[host] + " did not come up; " +
                            "see " + log);
                    }
                    Thread.sleep(20);
                }
            }
            console.printf("rfmrt demo: hosts A (%s) and B (%s) on a veth pair, each network copy joined by rfmrt " +
                "bridge; their lines in %s%n", Netns.address(0), Netns.address(1),
                outDir.resolve("bridge-host-{A,B}.log"));
            console.flush();
            return hosts;
        }
        catch (final Exception ex)
        {
            hosts.close();
            throw ex;
        }
    }

    /**
     * @param host which host.
     * @param args rfmrt arguments.
     * @return the started child on that host, stdout piped, stderr shared.
     */
    Process start(final int host, final String... args) throws IOException
    {
        return ChildJvm.builderOn(netns, host, roots[host], args).redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    }

    /**
     * Wait until the controller is up on host B and its card is held for it on host A.
     *
     * @param controller its process.
     */
    void awaitController(final Process controller) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!onHost(CONTROLLER_HOST, net -> net.cards().stream().anyMatch(c ->
            c.node() == ControlFrames.CONTROLLER_NODE && c.ownerAlive() &&
                (c.enabledMask() & EventType.INTR1.mask()) != 0)) ||
            !onHost(PLANT_HOST, net -> net.cards().stream().anyMatch(c ->
                c.node() == ControlFrames.CONTROLLER_NODE && c.present() && c.remote())))
        {
            if (System.nanoTime() > deadline || !controller.isAlive())
            {
                throw new IllegalStateException("the controller process did not come up on host B");
            }
            Thread.sleep(10);
        }
    }

    private synchronized <T> T onHost(final int host, final Function<SimNetwork, T> what)
    {
        final String before = System.getProperty(SimNetwork.ROOT_PROPERTY);
        System.setProperty(SimNetwork.ROOT_PROPERTY, roots[host].toString());
        try (SimNetwork net = SimNetwork.attach(network))
        {
            return what.apply(net);
        }
        finally
        {
            if (before == null)
            {
                System.clearProperty(SimNetwork.ROOT_PROPERTY);
            }
            else
            {
                System.setProperty(SimNetwork.ROOT_PROPERTY, before);
            }
        }
    }

    /**
     * One host's bridge over the run.
     *
     * @param node              the node on that host: plant or controller.
     * @param messagesSent      messages its bridge sent.
     * @param messagesReceived  messages it received.
     * @param eventsDelivered   events it delivered to its network.
     * @param divergences       times the copies were found to differ.
     * @param convergences      times they were made the same again.
     */
    public record HostBridge(String node, long messagesSent, long messagesReceived, long eventsDelivered,
        long divergences, long convergences)
    {
    }

    /**
     * @return per host (A, B): messages sent and received by its bridge, divergences and convergences.
     */
    Map<String, HostBridge> summary()
    {
        final Map<String, HostBridge> s = new LinkedHashMap<>();
        for (int host = 0; host < 2; host++)
        {
            final BridgeStatus b = onHost(host, BridgeStatus::of);
            s.put(NAMES[host], new HostBridge(host == PLANT_HOST ? "plant" : "controller",
                b.counter(BridgeCounter.MESSAGES_SENT), b.counter(BridgeCounter.MESSAGES_RECEIVED),
                b.counter(BridgeCounter.EVENTS_DELIVERED), b.counter(BridgeCounter.DIVERGENCES),
                b.counter(BridgeCounter.CONVERGENCES)));
        }
        return s;
    }

    /**
     * Stop the bridges (cleanly: SIGTERM), remove the namespaces and the hosts' roots. Never throws.
     */
    @Override
    public void close()
    {
        for (final Process bridge : bridges)
        {
            if (bridge != null)
            {
                bridge.destroy();
            }
        }
        for (final Process bridge : bridges)
        {
            try
            {
                if (bridge != null && !bridge.waitFor(10, TimeUnit.SECONDS))
                {
                    bridge.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        netns.close();
        for (final Path root : roots)
        {
            try
            {
                Folders.deleteTree(root);
            }
            catch (final IOException ignore)
            {
                // a leftover folder in /dev/shm; nothing else depends on it
            }
        }
    }
}
