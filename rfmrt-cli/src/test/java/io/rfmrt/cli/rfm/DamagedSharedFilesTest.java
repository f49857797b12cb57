package io.rfmrt.cli.rfm;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.CliRun;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line over a network whose shared files another process damaged: a header field that lies about a size,
 * or a file cut short. Each is refused before anything is used past its end, in one line naming the file, the field
 * and the value, with exit 1 and no stack trace; a node whose peer's DMA ring lies stops the same way, naming its
 * thread (its log keeps the trace).
 */
class DamagedSharedFilesTest
{
    private static final String NL = System.lineSeparator();
    /** Offset of the memory size in the control block's header (docs/protocol.md). */
    private static final int MEMORY_SIZE_OFFSET = 16;
    /** Offset of the slot size in a DMA ring's header (docs/protocol.md). */
    private static final int DMA_SLOT_SIZE_OFFSET = 16;

    private Path root;
    private Path control;

    @BeforeEach
    void setUp()
    {
        root = Path.of("/dev/shm", "rfmrt-damaged-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
        control = root.resolve("lab").resolve("control");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(root);
    }

    @Test
    void shouldRefuseAControlBlockWhoseMemorySizeLiesInOneLine() throws IOException
    {
        try (RfmDevice one = RfmDevices.open("sim:lab?node=1&size=1M"))
        {
            assertThat(CliRun.of("rfm", "status", "--network", "lab").exit()).isZero();
        }
        try (FileChannel file = FileChannel.open(control, StandardOpenOption.WRITE))
        {
            file.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 5000), MEMORY_SIZE_OFFSET);
        }
        assertOneLine(CliRun.of("rfm", "status", "--network", "lab"), "rfmrt: network 'lab' has a foreign or " +
            "corrupt control block " + control + ": memory size 5000 is not a multiple of 4096 between 4K and 1G");
    }

    @Test
    void shouldRefuseAControlBlockCutToItsHeaderInOneLine() throws IOException
    {
        RfmDevices.open("sim:lab?node=1&size=1M").close();
        try (FileChannel file = FileChannel.open(control, StandardOpenOption.WRITE))
        {
            file.truncate(4096);
        }
        assertOneLine(CliRun.of("rfm", "status", "--network", "lab"), "rfmrt: network 'lab' has a foreign or " +
            "corrupt control block " + control + ": it is 4096 bytes, its 256 cards of 73728 bytes make 18878464");
    }

    @Test
    void shouldStopANodeInOneLineWhenTheRingOfThePeerItSendsToLiesAboutItsSize(@TempDir final Path dir)
        throws Exception
    {
        Files.copy(Path.of("..", "deploy", "conf", "layout.yaml"), dir.resolve("layout.yaml"));
        Files.writeString(dir.resolve("node-1.yaml"), """
            device: sim:lab1?node=1
            layout: layout.yaml
            receive: {channels: [command], wait: blocking}
            publish: {channel: sensor, rateHz: 1000, size: 64}
            threads:
              lockMemory: false
            strict: false
            journal: {enabled: false}
            heartbeat: 0s
            """);
        // the receiving node, held here, its ring 64 slots of 2048 bytes; the header is made to say 4096-byte slots,
        // which would put the last slot's buffer 135168 bytes past the end of the file
        try (RfmDevice receiver = RfmDevices.open("sim:lab1?node=2&dma=auto&dmaSlots=64&dmaSlotSize=2048"))
        {
            receiver.enableEvent(EventType.INTR1);
            final Path ring = root.resolve("lab1").resolve("dma-002");
            assertThat(Files.size(ring)).isEqualTo(139_264);
            try (FileChannel file = FileChannel.open(ring, StandardOpenOption.WRITE))
            {
                file.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 4096), DMA_SLOT_SIZE_OFFSET);
            }
            final Process node = CliProcesses.start(root, ProcessBuilder.Redirect.PIPE, "node", "--config",
                dir.resolve("node-1.yaml").toString());
            final CompletableFuture<String> stderr =
                CompletableFuture.supplyAsync(() -> readAll(node.getErrorStream()));
            final String stdout = readAll(node.getInputStream());
            assertThat(node.waitFor(60, TimeUnit.SECONDS)).as("the node stops by itself").isTrue();
            final String err = stderr.get(30, TimeUnit.SECONDS);
            assertThat(node.exitValue()).as(stdout + err).isEqualTo(ExitCodes.ERROR);
            assertThat(err.lines().filter(l -> l.startsWith("rfmrt node: "))).as(err).containsExactly(
                "rfmrt node: thread rfmrt-publisher: RfmException: DMA ring " + ring + " is 139264 bytes, but its " +
                    "header's slot count 64 and slot size 4096 need 270336; stopping the node");
            assertThat(err).as("no trace from the JVM").doesNotContain("Exception in thread");
            assertThat(stdout).endsWith("stopped after a thread failed\n");
        }
    }

    private static String readAll(final InputStream in)
    {
        try
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void assertOneLine(final CliRun run, final String line)
    {
        assertThat(run.exit()).as(run.err()).isEqualTo(ExitCodes.ERROR);
        assertThat(run.err()).isEqualTo(line + NL);
        assertThat(run.out()).isEmpty();
    }
}
