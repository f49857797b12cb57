package io.rfmrt.cli.rfm;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.Main;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt rfm} on an RFM2g card (the native stand-in of the vendor library, on jna.library.path) beside sim
 * nodes of the same emulated network.
 */
class RfmCardCliTest
{
    private static final String NL = System.lineSeparator();

    private Path root;
    private String card;

    @BeforeEach
    void setUp() throws IOException
    {
        root = Path.of("/dev/shm", "rfmrt-card-cli-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
        assertThat(run("rfm", "create", "--network", "lab", "--size", "1M").exit()).isZero();
        final Path node = root.resolve("rfm2g0");
        Files.writeString(node, "network=" + SimNetwork.dir("lab") + "\nnode=2\ndmaBuffer=4096\n");
        card = "rfm2g:" + node + "?dmaThreshold=512";
    }

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(root);
    }

    private record Result(int exit, String out, String err)
    {
    }

    private static Result run(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int exit = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(exit, out.toString(), err.toString());
    }

    private static void assertUsage(final Result result, final String message)
    {
        assertThat(result.exit()).as(result.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).isEqualTo("rfmrt: " + message + NL);
        assertThat(result.out()).isEmpty();
    }

    @Test
    void shouldPokeOnTheCardAndPeekOnASimNodeAndBack()
    {
        final Result poke = run("rfm", "poke", "--device", card, "--offset", "100", "--value", "deadbeef");
        assertThat(poke.exit()).as(poke.err()).isZero();
        assertThat(poke.out()).isEqualTo("node 2 wrote 0xdeadbeef at 0x00000100" + NL);
        assertThat(run("rfm", "peek", "--network", "lab", "--node", "3", "--offset", "100").out())
            .isEqualTo("0x00000100: 0xdeadbeef" + NL);

        assertThat(run("rfm", "poke", "--network", "lab", "--node", "3", "--offset", "200", "--width", "64",
            "--value", "1122334455667788").exit()).isZero();
        final Result peek = run("rfm", "peek", "--device", card, "--offset", "200", "--width", "16", "--count", "2");
        assertThat(peek.exit()).as(peek.err()).isZero();
        assertThat(peek.out()).isEqualTo("0x00000200: 0x7788" + NL + "0x00000202: 0x5566" + NL);

        assertUsage(run("rfm", "peek", "--device", card, "--offset", "ffffc", "--count", "2"),
            "offset 0xffffc + 8 bytes is outside the 1048576-byte memory of device " + card);
    }

    @Test
    void shouldSendFromTheCardToASimNodeAndWaitOnTheCard() throws Exception
    {
        try (RfmDevice sim = RfmDevices.open("sim:lab?node=3"))
        {
            sim.enableEvent(EventType.INTR1);
            final Result send = run("rfm", "send", "--device", card, "--to", "3", "--type", "INTR1", "--data", "cafe");
            assertThat(send.exit()).as(send.err()).isZero();
            assertThat(send.out()).isEqualTo("node 2 sent INTR1 to node 3 data 0x0000cafe" + NL);
            final EventInfo info = new EventInfo();
            assertThat(sim.awaitEvent(EventType.INTR1, TimeUnit.SECONDS.toNanos(10), info))
                .isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.toString()).isEqualTo("event INTR1 from node 2 data 0x0000cafe");

            final CompletableFuture<Result> waiting = CompletableFuture.supplyAsync(() ->
                run("rfm", "wait", "--device", card, "--type", "INTR2", "--timeout", "60s"));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!enabledOnCard(EventType.INTR2))
            {
                assertThat(System.nanoTime()).as("the card never enabled INTR2").isLessThan(deadline);
                assertThat(waiting).isNotDone();
                Thread.sleep(5);
            }
            assertThat(sim.sendEvent(2, EventType.INTR2, 0xbeef)).isEqualTo(RfmStatus.SUCCESS);
            final Result wait = waiting.get(60, TimeUnit.SECONDS);
            assertThat(wait.exit()).as(wait.err()).isZero();
            assertThat(wait.out()).isEqualTo("event INTR2 from node 3 data 0x0000beef" + NL);
        }
        final Result timeout = run("rfm", "wait", "--device", card, "--type", "INTR3", "--timeout", "20ms");
        assertThat(timeout.exit()).isEqualTo(ExitCodes.TIMEOUT);
        assertThat(timeout.err()).isEqualTo("rfmrt: no INTR3 event for node 2 within 20 ms (0 of 1)" + NL);
    }

    private static boolean enabledOnCard(final EventType type)
    {
        try (SimNetwork net = SimNetwork.attach("lab"))
        {
            return net.cards().stream().anyMatch(c -> c.node() == 2 && (c.enabledMask() & type.mask()) != 0);
        }
    }

    @Test
    void shouldShowTheCardsConfigEventStatisticsAndCounters()
    {
        try (RfmDevice sim = RfmDevices.open("sim:lab?node=3"))
        {
            sim.enableEvent(EventType.INTR1);
            assertThat(run("rfm", "send", "--device", card, "--to", "3", "--type", "INTR1").exit()).isZero();
            assertThat(sim.sendEvent(2, EventType.INTR4, 1)).isEqualTo(RfmStatus.SUCCESS);
        }
        final Result status = run("rfm", "status", "--device", card);
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out())
            .startsWith("device " + card + "  node 2  board 0x65  memory 1048576 bytes" + NL)
            .contains("driver standin-1.0  ")
            .contains("DMA threshold 512 bytes  DMA buffer not reserved (PIO)" + NL)
            .containsPattern("event +count +queued +size +max size +peak +overflow +timeout ms")
            .containsPattern("(?m)^INTR1 +0 +0 +127 +127 +0 +no +0$")
            .containsPattern("(?m)^RXFIFO_FULL +0 +0 +127 +127 +0 +no +0$")
            .endsWith("node 2 counters: all zero" + NL);
    }

    @Test
    void shouldRefuseAMissingOrDoubleTargetWithOneLine()
    {
        assertUsage(run("rfm", "poke", "--device", card, "--network", "lab", "--offset", "0", "--value", "1"),
            "--device is instead of --network and --node, not with them");
        assertUsage(run("rfm", "peek", "--device", card, "--node", "1", "--offset", "0"),
            "--device is instead of --network and --node, not with them");
        assertUsage(run("rfm", "send", "--network", "lab", "--to", "1", "--type", "INTR1"),
            "give either --network NAME --node N or --device URI");
        assertUsage(run("rfm", "wait", "--node", "1", "--type", "INTR1"),
            "give either --network NAME --node N or --device URI");
        assertUsage(run("rfm", "status", "--device", card, "--network", "lab"),
            "give either --network NAME or --device URI");
        assertUsage(run("rfm", "status"), "give either --network NAME or --device URI");
        final Result self = run("rfm", "send", "--device", card, "--to", "2", "--type", "INTR1");
        assertThat(self.exit()).isEqualTo(ExitCodes.ERROR);
        assertThat(self.err()).isEqualTo("rfmrt: node 2 cannot send to itself" + NL);
    }
}
