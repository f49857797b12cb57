package io.rfmrt.cli.bridge;

import io.rfmrt.cli.ChildClassArchive;
import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.Main;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.Netns;
import io.rfmrt.cli.demo.DemoConfigs;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.control.node.NodeResults.ControllerResult;
import io.rfmrt.control.node.NodeResults.PlantResult;
import io.rfmrt.control.node.PlantApp;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeState;
import io.rfmrt.rfm.bridge.BridgeStatus;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The bridge across emulated hosts: network namespaces made by the test on a private link (a veth pair, or a Linux
 * bridge for three), a bridge process in each, nodes and commands run in them with {@code ip netns exec}. Every
 * namespace and folder is removed afterwards, also on failure. Needs root and {@code ip netns}; skipped otherwise.
 */
class BridgeNetnsTest
{
    private static final String NETWORK = "i14net";
    private static final int PORT = 40456;
    private static String unavailable;

    private final List<Process> processes = new ArrayList<>();
    private final List<Path> roots = new ArrayList<>();
    private Netns netns;
    private Path work;

    @BeforeAll
    static void checkNamespaces()
    {
        unavailable = Netns.unavailable();
    }

    @BeforeEach
    void setUp() throws IOException
    {
        assumeTrue(unavailable == null, () -> "no network namespaces here: " + unavailable);
        work = Files.createTempDirectory("i14-bridge-test");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        for (final Process p : processes)
        {
            p.destroy();
        }
        for (final Process p : processes)
        {
            try
            {
                if (!p.waitFor(10, TimeUnit.SECONDS))
                {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        if (netns != null)
        {
            netns.close();
        }
        for (final Path root : roots)
        {
            CliProcesses.removeTree(root);
        }
        if (work != null)
        {
            CliProcesses.removeTree(work);
        }
    }

    // ------------------------------------------------------------------------------------------ the tests

    @Test
    void shouldReflectPokesAndCarryEventsAcrossTwoHostsAndRefuseADuplicateNodeId() throws Exception
    {
        hosts(2);
        awaitInSync();

        final Run poke = cli(0, "rfm", "poke", "--network", NETWORK, "--node", "5", "--offset", "100",
            "--value", "1234abcd");
        assertThat(poke.exit()).as(poke.err()).isZero();
        await(() -> memoryLong(1, 0x100) == 0x1234abcdL, "the poke on host 1");
        final Run peek = cli(1, "rfm", "peek", "--network", NETWORK, "--node", "6", "--offset", "100");
        assertThat(peek.exit()).as(peek.err()).isZero();
        assertThat(peek.out()).isEqualTo("0x00000100: 0x1234abcd\n");

        final Process wait = start(1, "wait", "rfm", "wait", "--network", NETWORK, "--node", "7", "--type", "INTR1",
            "--timeout", "60s");
        await(() -> remoteNode(0, 7) != null, "node 7 of host 1 held on host 0");
        final Run send = cli(0, "rfm", "send", "--network", NETWORK, "--node", "6", "--to", "7", "--type", "INTR1",
            "--data", "beef");
        assertThat(send.exit()).as(send.err()).isZero();
        assertThat(wait.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(output(wait)).isEqualTo("event INTR1 from node 6 data 0x0000beef\n");

        final Process holder = start(0, "holder", "rfm", "wait", "--network", NETWORK, "--node", "9", "--type",
            "INTR2", "--timeout", "60s");
        await(() -> remoteNode(1, 9) != null, "node 9 of host 0 held on host 1");
        final Run duplicate = cli(1, "rfm", "poke", "--network", NETWORK, "--node", "9", "--offset", "100",
            "--value", "1");
        assertThat(duplicate.exit()).isEqualTo(1);
        assertThat(duplicate.err()).startsWith("rfmrt: node 9 of network '" + NETWORK + "' is held by process " +
            holder.pid() + " on host 'host0' (host id 1), as this host's bridge (pid ");
        assertThat(memoryLong(0, 0x100)).isEqualTo(0x1234abcdL);

        final Run status = cli(1, "rfm", "status", "--network", NETWORK);
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out()).contains("bridge host 2 (host1)").contains("state UP")
            .containsPattern("\\n +9  1 \\(host0\\) +" + holder.pid() + " ").contains("events delivered=1");
    }

    @Test
    void shouldDeliverEveryEventAfterItsDataOnTheOtherHost() throws Exception
    {
        hosts(2);
        awaitInSync();
        final int count = 20_000;
        final Process receiver = java(1, "receiver", BridgeProbe.class, "order-receive", NETWORK, "2",
            Integer.toString(count));
        assertThat(readLine(receiver)).isEqualTo("ready");
        final Process sender = java(0, "sender", BridgeProbe.class, "order-send", NETWORK, "1", "2",
            Integer.toString(count));
        assertThat(sender.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(output(sender)).isEqualTo("sent " + count + "\n");
        assertThat(receiver.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(lastLine(receiver))
            .isEqualTo("received " + count + " violations 0 disorder 0 overflows 0");
        assertThat(bridge(1).counter(BridgeCounter.EVENTS_DELIVERED)).isEqualTo(count);
    }

    @Test
    void shouldRunThePlantAndTheControllerOnTwoHostsAndLoseAFrameOnlyWhileTheLinkIsDown() throws Exception
    {
        // a node refuses a layout larger than its network: the bridges make one of the control layout's size
        networkSize = Long.toString(ControlFrames.LAYOUT.memorySize());
        // the bridges start warm here, as by default: the loop's first seconds are what a cold bridge loses
        warmUpFrames = "5000";
        hosts(2);
        awaitInSync();
        for (int host = 0; host < 2; host++)
        {
            assertThat(Files.readString(work.resolve("bridge" + host + ".out"))).as("host %d's bridge", host)
                .containsPattern("warmed up: [0-9]+ frames through a private pair of bridges in [0-9.]+ s \\(0 " +
                    "refused");
        }
        final int cycles = 10_000;
        final Path controllerYaml = DemoConfigs.writeBoth(work, NETWORK, work.resolve("journal"), 1000, cycles,
            "BLOCKING", PlantApp.MODEL_IDEAL, DemoProfile.STANDARD);
        final Process controller = start(1, "controller", "node", "--child", "--config", controllerYaml.toString());
        await(() -> remoteNode(0, 2) != null, "the controller (node 2) held on host 0");
        final Process plant = start(0, "plant", "node", "--child", "--config",
            work.resolve(DemoConfigs.PLANT_CONFIG).toString());
        assertThat(plant.waitFor(120, TimeUnit.SECONDS)).as("the plant ends after its cycles; %s", logs()).isTrue();
        assertThat(controller.waitFor(60, TimeUnit.SECONDS)).as("the controller ends after the plant; %s; memory " +
            "plant.done host 0 %d host 1 %d", logs(), memoryLong(0, 0x200), memoryLong(1, 0x200)).isTrue();
        assertThat(plant.exitValue()).isZero();
        assertThat(controller.exitValue()).isZero();
        final PlantResult p = ChildResult.read(resultLine(output(plant)), PlantResult.class);
        final ControllerResult c = ChildResult.read(resultLine(output(controller)),
            ControllerResult.class);
        // the plant's cycle is its tick number: a tick missed at the very end (a loaded machine) takes it past the
        // last one asked for, by at most the ticks it missed
        assertThat(p.cycles()).as("%s", p).isBetween((long)cycles, cycles + p.missedTicks());
        assertThat(p.sensorFrames()).isGreaterThanOrEqualTo(cycles - p.missedTicks());
        // every sensor frame the controller's bridge delivered was handled, and every one it did not get is counted
        final String why = String.format("%s; %s; bridges: %s; %s", c, p, bridgeCounters(2), logs());
        final long delivered = bridge(1).counter(BridgeCounter.EVENTS_DELIVERED);
        assertThat(c.cycles()).as("sensor frames the controller handled = its bridge delivered; %s", why)
            .isEqualTo(delivered);
        assertThat(c.lostFrames()).as("frames the controller did not get, counted; %s", why)
            .isEqualTo(p.sensorFrames() - c.cycles());
        assertThat(c.tornFrames()).isZero();
        // a frame goes missing between the hosts only while a link is down: a peer lost (a bridge silent or its
        // stream blocked for the peer time-out, as on a loaded machine), counted by the bridge that lost it;
        // without one, nothing is lost
        if (bridge(0).counter(BridgeCounter.PEER_LOSSES) == 0 && bridge(1).counter(BridgeCounter.PEER_LOSSES) == 0)
        {
            assertThat(c.cycles()).as("no peer lost, so every sensor frame arrived; %s", why)
                .isEqualTo(p.sensorFrames());
            assertThat(p.commandGaps()).as("no peer lost, so every command arrived; %s", why).isZero();
        }
        else
        {
            // a peer lost on one host only (host 0 alone, or before the first convergence) takes no link down on the
            // other: the identities above are what holds then
            System.out.printf("a peer was lost during the run (%s): %d of %d sensor frames did not cross%n",
                bridgeCounters(2), p.sensorFrames() - c.cycles(), p.sensorFrames());
        }
    }

    @Test
    void shouldRaiseSyncLossWhenTheLinkDropsAndConvergeWhenItReturns() throws Exception
    {
        hosts(2);
        awaitInSync();
        final Path stop = work.resolve("stop");
        final Process writerA = java(0, "writer0", BridgeProbe.class, "write", NETWORK, "11", "0x40000", "60",
            stop.toString());
        final Process writerB = java(1, "writer1", BridgeProbe.class, "write", NETWORK, "12", "0x50000", "60",
            stop.toString());
        assertThat(readLine(writerA)).isEqualTo("writing");
        assertThat(readLine(writerB)).isEqualTo("writing");
        await(() -> memoryLong(1, 0x40000) != 0 && memoryLong(0, 0x50000) != 0, "writes across");

        netns.link(0, false);
        await(() -> !linkUp(0) && !linkUp(1), "the link down on both hosts");
        final long sendRefused = cli(0, "rfm", "send", "--network", NETWORK, "--node", "13", "--to", "12",
            "--type", "INTR1").exit();
        assertThat(sendRefused).as("a send while the link is down").isEqualTo(1);
        await(() -> card(0, 11).counter(RfmCounter.SYNC_LOSSES, null) >= 1 &&
            card(1, 12).counter(RfmCounter.SYNC_LOSSES, null) >= 1, "SYNC_LOSS on the writers' cards");
        final long apartA = memoryLong(0, 0x40000);
        await(() -> memoryLong(0, 0x40000) > apartA + 100, "host 0 writing while apart");
        assertThat(memoryLong(1, 0x40000)).as("host 1 does not see host 0's writes while apart")
            .isLessThanOrEqualTo(apartA);
        Thread.sleep(1000);
        netns.link(0, true);
        awaitInSync();

        Files.createFile(stop);
        assertThat(writerA.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(writerB.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // each writer's card saw the link go down (SYNC_LOSS, taken by the writer) at least once: more than once
        // only if the loaded machine held a bridge up for longer than the peer time-out as well
        assertThat(lastLine(writerA)).as(logs()).matches("wrote [0-9]+ sync-losses [1-9][0-9]*");
        assertThat(lastLine(writerB)).as(logs()).matches("wrote [0-9]+ sync-losses [1-9][0-9]*");
        awaitConverged(2);
        for (int i = 0; i < 2; i++)
        {
            final BridgeStatus bridge = bridge(i);
            assertThat(bridge.counter(BridgeCounter.DIVERGENCES)).as("host %d", i).isPositive();
            assertThat(bridge.counter(BridgeCounter.CONVERGENCES)).as("host %d: converged after every divergence",
                i).isEqualTo(bridge.counter(BridgeCounter.DIVERGENCES) + 1);
            assertThat(bridge.counter(BridgeCounter.RESYNC_CONFLICTS)).isZero();
            assertThat(bridge.records()).extracting(BridgeStatus.Record::kind)
                .contains(io.rfmrt.rfm.bridge.BridgeRecordKind.DIVERGED, io.rfmrt.rfm.bridge.BridgeRecordKind.CONVERGED);
        }
    }

    @Test
    void shouldResynchroniseAHostWhoseBridgeWasKilledWhileTheOthersRunOn() throws Exception
    {
        hosts(3);
        awaitInSync();
        final Run poke = cli(0, "rfm", "poke", "--network", NETWORK, "--node", "5", "--offset", "100", "--width",
            "64", "--value", "1122334455667788");
        assertThat(poke.exit()).as(poke.err()).isZero();
        for (int i = 1; i < 3; i++)
        {
            final int host = i;
            await(() -> memoryLong(host, 0x100) == 0x1122334455667788L, "the poke on host " + host);
        }
        final Run peek = cli(2, "rfm", "peek", "--network", NETWORK, "--node", "6", "--offset", "100", "--width",
            "64");
        assertThat(peek.out()).isEqualTo("0x00000100: 0x1122334455667788\n");

        final Path stop = work.resolve("stop");
        final Process[] writers = new Process[3];
        for (int i = 0; i < 3; i++)
        {
            writers[i] = java(i, "writer" + i, BridgeProbe.class, "write", NETWORK, Integer.toString(20 + i),
                "0x" + Integer.toHexString(0x40000 + i * 0x1000), "90", stop.toString());
            assertThat(readLine(writers[i])).isEqualTo("writing");
        }
        final Process killed = hostProcesses[2];
        hostProcesses[2] = null;
        killed.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        await(() -> !linkUp(0) && !linkUp(1), "the others see host 2 gone");
        final long before = memoryLong(1, 0x40000);
        await(() -> memoryLong(1, 0x40000) > before + 100, "hosts 0 and 1 still exchanging writes");
        assertThat(writers[0].isAlive() && writers[1].isAlive() && writers[2].isAlive()).isTrue();
        startBridge(2, 3);
        awaitInSync();

        Files.createFile(stop);
        for (final Process writer : writers)
        {
            assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(lastLine(writer)).matches("wrote [0-9]+ sync-losses [0-9]+");
        }
        awaitConverged(3);
        assertThat(bridge(2).counter(BridgeCounter.RESYNCS_REQUESTED)).isGreaterThanOrEqualTo(2);
    }

    @Test
    void shouldAgreeOnEveryWriterSLastWordsAfterRepeatedLinkFlapsOnThreeHosts() throws Exception
    {
        hosts(3);
        awaitInSync();
        final Path stop = work.resolve("stop");
        final Process[] writers = new Process[3];
        for (int i = 0; i < 3; i++)
        {
            writers[i] = java(i, "writer" + i, BridgeProbe.class, "write", NETWORK, Integer.toString(30 + i),
                "0x" + Integer.toHexString(writerBase(i)), "120", stop.toString());
            assertThat(readLine(writers[i])).isEqualTo("writing");
        }
        await(() -> memoryLong(1, writerBase(0)) != 0 && memoryLong(2, writerBase(1)) != 0 &&
            memoryLong(0, writerBase(2)) != 0, "writes across");

        // five flaps, each host's link in turn, some shorter and some longer than the peer time-out (1 s), with
        // less than a time-out between them: resyncs are cut short by the next flap
        final long[] downMs = {300, 1500, 700, 3000, 400};
        for (int flap = 0; flap < downMs.length; flap++)
        {
            netns.link(flap % 3, false);
            Thread.sleep(downMs[flap]);
            netns.link(flap % 3, true);
            Thread.sleep(200);
        }
        final long healed = System.nanoTime();
        awaitInSync();
        System.out.println("three hosts in sync " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - healed) +
            " ms after the last flap ended");

        Files.createFile(stop);
        final long[] wrote = new long[3];
        for (int i = 0; i < 3; i++)
        {
            assertThat(writers[i].waitFor(30, TimeUnit.SECONDS)).isTrue();
            final String last = lastLine(writers[i]);
            assertThat(last).as(logs()).matches("wrote [0-9]+ sync-losses [1-9][0-9]*");
            wrote[i] = Long.parseLong(last.split(" ")[1]);
        }
        awaitConverged(3);
        for (int host = 0; host < 3; host++)
        {
            for (int writer = 0; writer < 3; writer++)
            {
                for (final int word : new int[] {0, 31, 63})
                {
                    assertThat(memoryLong(host, writerBase(writer) + word * 8L))
                        .as("host %d, writer %d's word %d", host, writer, word).isEqualTo(wrote[writer] * 64 + word);
                }
            }
            final BridgeStatus bridge = bridge(host);
            assertThat(bridge.counter(BridgeCounter.DIVERGENCES)).as("host %d", host).isPositive();
            assertThat(bridge.counter(BridgeCounter.CONVERGENCES)).as("host %d: converged after every divergence",
                host).isEqualTo(bridge.counter(BridgeCounter.DIVERGENCES) + 1);
        }
    }

    private static int writerBase(final int host)
    {
        return 0x40000 + host * 0x1000;
    }

    @Test
    void shouldCarryABroadcastEventToTheNodesOfEveryOtherHost() throws Exception
    {
        hosts(3);
        awaitInSync();
        final Process wait1 = start(1, "wait1", "rfm", "wait", "--network", NETWORK, "--node", "7", "--type",
            "INTR2", "--timeout", "60s");
        final Process wait2 = start(2, "wait2", "rfm", "wait", "--network", NETWORK, "--node", "8", "--type",
            "INTR2", "--timeout", "60s");
        await(() -> remoteNode(0, 7) != null && remoteNode(0, 8) != null, "nodes 7 and 8 held on host 0");
        final Run poke = cli(0, "rfm", "poke", "--network", NETWORK, "--node", "6", "--offset", "300",
            "--value", "cafe");
        assertThat(poke.exit()).as(poke.err()).isZero();
        final Run send = cli(0, "rfm", "send", "--network", NETWORK, "--node", "6", "--to", "all", "--type",
            "INTR2", "--data", "77");
        assertThat(send.exit()).as(send.err()).isZero();
        for (final Process wait : List.of(wait1, wait2))
        {
            assertThat(wait.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(output(wait)).isEqualTo("event INTR2 from node 6 data 0x00000077\n");
        }
        for (int host = 1; host < 3; host++)
        {
            assertThat(memoryLong(host, 0x300) & 0xFFFF_FFFFL).as("host %d", host).isEqualTo(0xcafeL);
            assertThat(bridge(host).counter(BridgeCounter.EVENTS_DELIVERED)).as("host %d", host).isEqualTo(1);
        }
    }

    // ------------------------------------------------------------------------------------------ hosts

    private Process[] hostProcesses;
    /** Memory of the bridged network: 1M, or the control layout's size where the plant and the controller run. */
    private String networkSize = "1M";

    private void hosts(final int count) throws IOException
    {
        final String tag = UUID.randomUUID().toString().substring(0, 4);
        netns = Netns.create("i14" + tag, count);
        hostProcesses = new Process[count];
        for (int i = 0; i < count; i++)
        {
            roots.add(Path.of("/dev/shm", "i14-" + tag + "-host" + i));
        }
        for (int i = 0; i < count; i++)
        {
            startBridge(i, count);
        }
    }

    /** Frames each bridge warms up with: none (a cold start, quicker) unless a test is about the first seconds. */
    private String warmUpFrames = "0";

    private void startBridge(final int host, final int count) throws IOException
    {
        final List<String> peers = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            if (i != host)
            {
                peers.add((i + 1) + "@" + Netns.address(i) + ":" + PORT);
            }
        }
        final List<String> command = jvm(host, Main.class.getName());
        command.addAll(List.of("bridge", "--network", NETWORK, "--host-id", Integer.toString(host + 1),
            "--host-name", "host" + host, "--channel", "aeron:udp?endpoint=" + Netns.address(host) + ":" + PORT,
            "--peers", String.join(",", peers), "--size", networkSize, "--log-size", "1M", "--peer-timeout", "1s",
            "--heartbeat", "100ms", "--warm-up-frames", warmUpFrames));
        // its lines go to a file (appended over restarts), never into a pipe nobody drains
        final Process p = new ProcessBuilder(command)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(work.resolve("bridge" + host + ".out").toFile()))
            .redirectError(ProcessBuilder.Redirect.appendTo(work.resolve("bridge" + host + ".err").toFile()))
            .start();
        processes.add(p);
        hostProcesses[host] = p;
    }

    private List<String> jvm(final int host, final String main)
    {
        final List<String> command = new ArrayList<>(netns.exec(host));
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(CliProcesses.childJvmFlags());
        command.add("-Xmx256m");
        command.add("-D" + SimNetwork.ROOT_PROPERTY + "=" + roots.get(host));
        command.addAll(ChildClassArchive.classpathArgs());
        command.add(main);
        return command;
    }

    private Process start(final int host, final String name, final String... args) throws IOException
    {
        final List<String> command = jvm(host, Main.class.getName());
        command.addAll(List.of(args));
        return launch(command, name);
    }

    private Process java(final int host, final String name, final Class<?> main, final String... args)
        throws IOException
    {
        final List<String> command = jvm(host, main.getName());
        command.addAll(List.of(args));
        return launch(command, name);
    }

    private Process launch(final List<String> command, final String name) throws IOException
    {
        // output to files, never into a pipe that fills while the test waits for the process
        final Process p = new ProcessBuilder(command)
            .redirectOutput(work.resolve(name + ".out").toFile())
            .redirectError(work.resolve(name + ".err").toFile())
            .start();
        processes.add(p);
        names.put(p, name);
        return p;
    }

    private final java.util.Map<Process, String> names = new java.util.HashMap<>();

    private String output(final Process p) throws IOException
    {
        return Files.readString(work.resolve(names.get(p) + ".out"));
    }

    private String lastLine(final Process p) throws IOException
    {
        final List<String> lines = output(p).lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    private String readLine(final Process p) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true)
        {
            final String out = output(p);
            final int nl = out.indexOf('\n');
            if (nl >= 0)
            {
                return out.substring(0, nl);
            }
            if (!p.isAlive() || System.nanoTime() > deadline)
            {
                return out;
            }
            Thread.sleep(10);
        }
    }

    private record Run(int exit, String out, String err)
    {
    }

    private Run cli(final int host, final String... args) throws Exception
    {
        final List<String> command = jvm(host, Main.class.getName());
        command.addAll(List.of(args));
        final Path out = Files.createTempFile(work, "out", ".txt");
        final Path err = Files.createTempFile(work, "err", ".txt");
        final Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
            .start();
        processes.add(p);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("rfmrt %s", String.join(" ", args)).isTrue();
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }



    private static String resultLine(final String output)
    {
        return output.lines().filter(l -> l.startsWith("result ")).findFirst()
            .orElseThrow(() -> new AssertionError("no result line in: " + output));
    }

    // ------------------------------------------------------------------------------------------ what the hosts show

    private SimNetwork.Status status(final int host)
    {
        return onHost(host, SimNetwork::status);
    }

    private synchronized <T> T onHost(final int host, final Function<SimNetwork, T> read)
    {
        final String before = System.getProperty(SimNetwork.ROOT_PROPERTY);
        System.setProperty(SimNetwork.ROOT_PROPERTY, roots.get(host).toString());
        try (SimNetwork net = SimNetwork.attach(NETWORK))
        {
            return read.apply(net);
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

    private BridgeStatus bridge(final int host)
    {
        return onHost(host, BridgeStatus::of);
    }

    /** Every bridge's non-zero counters, for a failure's message. */
    private String bridgeCounters(final int hosts)
    {
        final StringBuilder text = new StringBuilder();
        for (int host = 0; host < hosts; host++)
        {
            text.append("host ").append(host).append(" {");
            final BridgeStatus status = bridge(host);
            for (final BridgeCounter counter : BridgeCounter.values())
            {
                final long value = status.counter(counter);
                if (value != 0)
                {
                    text.append(' ').append(counter.name().toLowerCase(Locale.ROOT)).append('=').append(value);
                }
            }
            text.append(" } ");
        }
        return text.toString();
    }

    private boolean linkUp(final int host)
    {
        if (!Files.exists(roots.get(host).resolve(NETWORK).resolve("bridge")))
        {
            return false;
        }
        return onHost(host, net -> net.linkUp() && BridgeStatus.of(net) != null &&
            BridgeStatus.of(net).state() == BridgeState.UP);
    }

    private SimNetwork.CardStatus card(final int host, final int node)
    {
        return status(host).cards().stream().filter(c -> c.node() == node).findFirst()
            .orElseThrow(() -> new AssertionError("no card " + node + " on host " + host));
    }

    private BridgeStatus.RemoteNode remoteNode(final int host, final int node)
    {
        if (!Files.exists(roots.get(host).resolve(NETWORK).resolve("bridge")))
        {
            return null;
        }
        return bridge(host).remoteNodes().stream().filter(n -> n.node() == node).findFirst().orElse(null);
    }

    private long memoryLong(final int host, final long offset) throws IOException
    {
        final Path memory = roots.get(host).resolve(NETWORK).resolve("memory");
        if (!Files.exists(memory))
        {
            return 0;
        }
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(memory))
        {
            final java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            ch.read(b, offset);
            return b.getLong(0);
        }
    }

    private long imageCrc(final int host) throws IOException
    {
        final CRC32C crc = new CRC32C();
        crc.update(Files.readAllBytes(roots.get(host).resolve(NETWORK).resolve("memory")));
        return crc.getValue();
    }

    private void awaitInSync() throws Exception
    {
        await(() ->
        {
            for (int i = 0; i < roots.size(); i++)
            {
                if (!linkUp(i))
                {
                    return false;
                }
            }
            return true;
        }, "every host's link up");
    }

    private void awaitConverged(final int hosts) throws Exception
    {
        await(() ->
        {
            try
            {
                final long first = imageCrc(0);
                for (int i = 1; i < hosts; i++)
                {
                    if (imageCrc(i) != first)
                    {
                        return false;
                    }
                }
                return true;
            }
            catch (final IOException ex)
            {
                return false;
            }
        }, "equal images (CRC32C) on every host");
    }

    @FunctionalInterface
    private interface Check
    {
        boolean test() throws Exception;
    }

    private void await(final Check check, final String what) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!check.test())
        {
            for (int i = 0; hostProcesses != null && i < hostProcesses.length; i++)
            {
                final Process bridge = hostProcesses[i];
                if (bridge != null && !bridge.isAlive() && bridge.exitValue() != 0)
                {
                    throw new AssertionError("the bridge of host " + i + " failed: " +
                        Files.readString(work.resolve("bridge" + i + ".err")));
                }
            }
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out waiting for " + what + "; bridge logs: " + logs());
            }
            Thread.sleep(20);
        }
    }

    private String logs() throws IOException
    {
        final StringBuilder b = new StringBuilder();
        try (java.util.stream.Stream<Path> files = Files.list(work))
        {
            for (final Path f : files.filter(f -> f.toString().endsWith(".err") &&
                !f.getFileName().toString().startsWith("bridge") && !f.getFileName().toString().startsWith("err")).toList())
            {
                b.append("\n--- ").append(f.getFileName()).append(": ").append(Files.readString(f));
            }
        }
        for (int i = 0; hostProcesses != null && i < hostProcesses.length; i++)
        {
            for (final String kind : List.of(".out", ".err"))
            {
                final Path file = work.resolve("bridge" + i + kind);
                b.append("\n--- host ").append(i).append(kind).append(": ")
                    .append(Files.exists(file) ? Files.readString(file) : "");
            }
        }
        return b.toString();
    }

}
