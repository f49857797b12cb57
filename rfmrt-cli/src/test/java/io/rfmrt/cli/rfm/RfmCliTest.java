package io.rfmrt.cli.rfm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.Main;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class RfmCliTest
{
    private Path root;

    @BeforeEach
    void setUp()
    {
        root = Path.of("/dev/shm", "rfmrt-cli-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
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

    private static void assertOneLineError(final Result result, final int exit, final String message)
    {
        assertThat(result.exit()).as(result.err()).isEqualTo(exit);
        assertThat(result.err()).isEqualTo("rfmrt: " + message + System.lineSeparator());
    }

    @Test
    void shouldCreateShowAndDestroyANetwork()
    {
        assertThat(run("rfm", "create", "--network", "lab", "--size", "1M").exit()).isZero();
        final Result status = run("rfm", "status", "--network", "lab");
        assertThat(status.exit()).isZero();
        assertThat(status.out()).startsWith("network lab  memory 1048576 bytes  link up");
        assertThat(status.out()).contains("(no cards)");
        assertOneLineError(run("rfm", "create", "--network", "lab"), 1,
            "network 'lab' already exists in " + root.resolve("lab") +
            " with 1,048,576 bytes of memory, not the 16,777,216 asked for");
        assertThat(run("rfm", "destroy", "--network", "lab").exit()).isZero();
        assertThat(root.resolve("lab")).doesNotExist();
    }

    @Test
    void shouldPrintStatusAndPeekAsJson() throws IOException
    {
        assertThat(run("rfm", "create", "--network", "lab", "--size", "1M").exit()).isZero();
        assertThat(run("rfm", "poke", "--network", "lab", "--node", "1", "--offset", "100", "--value", "cafe").exit())
            .isZero();
        final Result peek = run("rfm", "peek", "--network", "lab", "--node", "3", "--offset", "100", "--count", "2",
            "--json");
        assertThat(peek.exit()).as(peek.err()).isZero();
        final JsonNode values = new ObjectMapper().readTree(peek.out());
        assertThat(values.get("node").asInt()).isEqualTo(3);
        assertThat(values.get("width").asInt()).isEqualTo(32);
        assertThat(values.get("values").get(0).get("offset").asLong()).isEqualTo(0x100);
        assertThat(values.get("values").get(0).get("hex").asText()).isEqualTo("0x0000cafe");
        assertThat(values.get("values").get(0).get("value").asLong()).isEqualTo(0xcafe);
        assertThat(values.get("values").get(1).get("value").asLong()).isZero();

        final Result status = run("rfm", "status", "--network", "lab", "--json");
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out().lines().count()).as("one object").isEqualTo(1);
        final JsonNode network = new ObjectMapper().readTree(status.out());
        assertThat(network.get("network").asText()).isEqualTo("lab");
        assertThat(network.get("memory_bytes").asLong()).isEqualTo(1 << 20);
        assertThat(network.get("link_up").asBoolean()).isTrue();
        assertThat(network.get("bridge").isNull()).as("not bridged").isTrue();
        for (final JsonNode card : network.get("cards"))
        {
            assertThat(card.get("state").asText()).isIn("free", "live", "dead", "remote");
            assertThat(card.get("counters").size()).as("every counter, zero included").isPositive();
        }
    }

    @Test
    void shouldRefuseAdministrationOfAMissingNetwork()
    {
        final String missing = "network 'nope' does not exist (no " + root.resolve("nope").resolve("control") + ")";
        assertOneLineError(run("rfm", "status", "--network", "nope"), 1, missing);
        assertOneLineError(run("rfm", "link", "--network", "nope", "--down"), 1, missing);
        assertOneLineError(run("rfm", "reset", "--network", "nope"), 1, missing);
        assertOneLineError(run("rfm", "destroy", "--network", "nope"), 1, missing);
        assertThat(root.resolve("nope")).doesNotExist();
    }

    @Test
    void shouldPokeAndPeekEveryWidthAndCreateTheNetworkOnFirstUse()
    {
        assertThat(run("rfm", "poke", "--network", "lab", "--node", "1", "--offset", "0x100", "--value", "0xcafe")
            .exit()).isZero();
        assertThat(root.resolve("lab").resolve("control")).exists();
        assertThat(run("rfm", "peek", "--network", "lab", "--node", "2", "--offset", "100").out())
            .isEqualTo("0x00000100: 0x0000cafe" + System.lineSeparator());
        run("rfm", "poke", "--network", "lab", "--node", "1", "--offset", "108", "--value", "1122334455667788",
            "--width", "64");
        run("rfm", "poke", "--network", "lab", "--node", "1", "--offset", "104", "--value", "ab", "--width", "8");
        run("rfm", "poke", "--network", "lab", "--node", "1", "--offset", "106", "--value", "beef", "--width", "16");
        assertThat(run("rfm", "peek", "--network", "lab", "--node", "2", "--offset", "108", "--width", "64").out())
            .isEqualTo("0x00000108: 0x1122334455667788" + System.lineSeparator());
        assertThat(run("rfm", "peek", "--network", "lab", "--node", "2", "--offset", "104", "--width", "8",
            "--count", "4").out().lines().toList())
            .containsExactly("0x00000104: 0xab", "0x00000105: 0x00", "0x00000106: 0xef", "0x00000107: 0xbe");
    }

    @Test
    void shouldRejectBadOffsetsWithoutCreatingAnything()
    {
        assertOneLineError(run("rfm", "poke", "--network", "lab", "--node", "1", "--offset", "0x13", "--value", "1"),
            2, "offset 0x13 is not 4-byte aligned for a 32-bit access");
        assertOneLineError(run("rfm", "peek", "--network", "lab", "--node", "1", "--offset", "0x1000000"), 2,
            "offset 0x1000000 + 4 bytes is outside the 16777216-byte memory of network 'lab'");
        assertThat(root.resolve("lab")).doesNotExist();
        assertOneLineError(run("rfm", "peek", "--network", "lab", "--node", "300", "--offset", "0"), 2,
            "Invalid value for option '--node': node 300 is outside 0-255 (see 'rfmrt rfm peek --help')");
        assertOneLineError(run("rfm", "peek", "--network", "lab", "--node", "1", "--offset", "xyz"), 2,
            "Invalid value for option '--offset': 'xyz' is not a hexadecimal number (see 'rfmrt rfm peek --help')");
        assertOneLineError(run("rfm", "poke", "--network", "lab", "--node", "1", "--offset", "0", "--value", "1ff",
            "--width", "8"), 2, "--value 0x1ff does not fit 8 bits");
        assertOneLineError(run("rfm", "peek", "--network", "bad name", "--node", "1", "--offset", "0"), 2,
            "Invalid value for option '--network': network name 'bad name' is not 1-64 letters, digits, '.', '_' " +
            "or '-' starting with a letter or digit: it has ' ' at 4 (see 'rfmrt rfm peek --help')");
        assertThat(root).doesNotExist();
    }

    @Test
    void shouldRefuseANodeHeldByALiveProcess()
    {
        try (RfmDevice held = RfmDevices.open("sim:lab?node=7"))
        {
            assertOneLineError(run("rfm", "peek", "--network", "lab", "--node", "7", "--offset", "0"), 1,
                "node 7 of network 'lab' is held by live process " + ProcessHandle.current().pid());
            final Result status = run("rfm", "status", "--network", "lab");
            assertThat(status.out()).containsPattern("\\s+7\\s+" + ProcessHandle.current().pid() + "\\s+live\\s+");
            assertOneLineError(run("rfm", "destroy", "--network", "lab"), 1, "network 'lab' has live nodes [7 (pid " +
                ProcessHandle.current().pid() + ")]; stop them or use --force");
            assertThat(held.nodeId()).isEqualTo(7);
        }
    }

    @Test
    void shouldTimeOutWithExitCodeThree()
    {
        run("rfm", "create", "--network", "lab", "--size", "1M");
        final Result result = run("rfm", "wait", "--network", "lab", "--node", "2", "--type", "INTR1", "--timeout",
            "200ms");
        assertOneLineError(result, 3, "no INTR1 event for node 2 within 200 ms (0 of 1)");
    }

    @Test
    void shouldRefuseSendsWhileTheRingIsOpen()
    {
        run("rfm", "create", "--network", "lab");
        assertThat(run("rfm", "link", "--network", "lab", "--down").out()).isEqualTo("network lab link down" +
            System.lineSeparator());
        assertOneLineError(run("rfm", "send", "--network", "lab", "--node", "1", "--to", "2", "--type", "INTR1"), 1,
            "send refused: LINK_TEST_FAIL (the ring is open: rfmrt rfm link --up)");
        assertThat(run("rfm", "status", "--network", "lab").out()).contains("link DOWN");
        run("rfm", "link", "--network", "lab", "--up");
        assertThat(run("rfm", "send", "--network", "lab", "--node", "1", "--to", "2", "--type", "INTR1", "--data",
            "cafe").out()).isEqualTo("node 1 sent INTR1 to node 2 data 0x0000cafe (node 2 is not on the ring: " +
            "nobody received it)" + System.lineSeparator());
        assertOneLineError(run("rfm", "send", "--network", "lab", "--node", "1", "--to", "1", "--type", "INTR1"), 1,
            "node 1 cannot send to itself");
        assertOneLineError(run("rfm", "send", "--network", "lab", "--node", "1", "--to", "2", "--type", "SYNC_LOSS"),
            2, "--type SYNC_LOSS cannot be sent (INTR1..INTR4 or RESET)");
        assertThat(run("rfm", "link", "--network", "lab").exit()).isEqualTo(2);
    }

    @Test
    void shouldWaitInOneProcessForEventsSentFromOthers() throws Exception
    {
        run("rfm", "create", "--network", "lab");
        final Process waiter = cli("rfm", "wait", "--network", "lab", "--node", "2", "--type", "INTR1", "--count",
            "2", "--timeout", "60s");
        final BufferedReader out = new BufferedReader(new InputStreamReader(waiter.getInputStream(),
            StandardCharsets.UTF_8));
        awaitEnabled(2);
        assertThat(cli("rfm", "send", "--network", "lab", "--node", "1", "--to", "2", "--type", "INTR1", "--data",
            "cafe").waitFor()).isZero();
        assertThat(cli("rfm", "send", "--network", "lab", "--node", "3", "--to", "all", "--type", "INTR1", "--data",
            "1").waitFor()).isZero();
        assertThat(out.readLine()).isEqualTo("event INTR1 from node 1 data 0x0000cafe");
        assertThat(out.readLine()).isEqualTo("event INTR1 from node 3 data 0x00000001");
        assertThat(waiter.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(waiter.exitValue()).isZero();
        // the waiter released its node on exit
        assertThat(run("rfm", "status", "--network", "lab").out()).doesNotContain(" live ");
    }

    @Test
    void shouldPrintEachEventAsOneJsonLineAsItArrives() throws Exception
    {
        run("rfm", "create", "--network", "lab");
        final Process waiter = cli("rfm", "wait", "--network", "lab", "--node", "2", "--type", "INTR3", "--count",
            "2", "--timeout", "60s", "--json");
        final BufferedReader out = new BufferedReader(new InputStreamReader(waiter.getInputStream(),
            StandardCharsets.UTF_8));
        awaitEnabled(2);
        assertThat(cli("rfm", "send", "--network", "lab", "--node", "1", "--to", "2", "--type", "INTR3", "--data",
            "cafe").waitFor()).isZero();
        // the first line is out before the second event is sent: one line per event, as it arrives
        assertEvent(out.readLine(), "INTR3", 1, 0xcafeL);
        assertThat(cli("rfm", "send", "--network", "lab", "--node", "3", "--to", "all", "--type", "INTR3", "--data",
            "ffffffff").waitFor()).isZero();
        assertEvent(out.readLine(), "INTR3", 3, 0xffffffffL);
        assertThat(waiter.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(waiter.exitValue()).isZero();
        assertThat(out.readLine()).as("nothing after the two events").isNull();
    }

    @Test
    void shouldTimeOutWithExitCodeThreeAfterTheEventsThatCameAsJson() throws Exception
    {
        run("rfm", "create", "--network", "lab");
        final Process waiter = CliProcesses.start(root, ProcessBuilder.Redirect.PIPE, "rfm", "wait", "--network",
            "lab", "--node", "2", "--type", "INTR1", "--count", "2", "--timeout", "3s", "--json");
        awaitEnabled(2);
        try (RfmDevice sender = RfmDevices.open("sim:lab?node=1"))
        {
            assertThat(sender.sendEvent(2, EventType.INTR1, 7)).isEqualTo(RfmStatus.SUCCESS);
        }
        assertThat(waiter.waitFor(60, TimeUnit.SECONDS)).isTrue();
        final String err = new String(waiter.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(waiter.exitValue()).as(err).isEqualTo(3);
        assertThat(err).isEqualTo("rfmrt: no INTR1 event for node 2 within 3 s (1 of 2)" + System.lineSeparator());
        final List<String> lines = new String(waiter.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
            .lines().toList();
        assertThat(lines).as("the one event that came, and nothing for the time-out").hasSize(1);
        assertEvent(lines.get(0), "INTR1", 1, 7);
    }

    private static void assertEvent(final String line, final String type, final int sourceNode, final long data)
        throws IOException
    {
        assertThat(line).as("one JSON object on one line").startsWith("{").endsWith("}");
        final JsonNode event = new ObjectMapper().readTree(line);
        assertThat(event.properties()).extracting(Map.Entry::getKey).containsExactly("type", "source_node", "data");
        assertThat(event.get("type").asText()).isEqualTo(type);
        assertThat(event.get("source_node").isInt()).isTrue();
        assertThat(event.get("source_node").asInt()).isEqualTo(sourceNode);
        assertThat(event.get("data").isIntegralNumber()).as("data as an unsigned number").isTrue();
        assertThat(event.get("data").asLong()).isEqualTo(data);
    }

    /** Wait until a node of the network has an event enabled (its waiter is in place). */
    private static void awaitEnabled(final int node) throws InterruptedException
    {
        try (SimNetwork net = SimNetwork.attach("lab"))
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (net.cards().stream().noneMatch(c -> c.node() == node && c.ownerAlive() && c.enabledMask() != 0))
            {
                assertThat(System.nanoTime()).as("waiter enabled its event").isLessThan(deadline);
                Thread.sleep(20);
            }
        }
    }

    private Process cli(final String... args) throws IOException
    {
        return CliProcesses.start(root, ProcessBuilder.Redirect.INHERIT, args);
    }
}
