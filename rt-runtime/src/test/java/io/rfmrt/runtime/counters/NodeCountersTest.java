package io.rfmrt.runtime.counters;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.RtErrorPolicy;
import io.rfmrt.runtime.RuntimeCounter;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.rfmrt.runtime.counters.CountersFileDescriptor.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeCountersTest
{
    private static final List<ChannelSpec> INPUTS = List.of(
        new ChannelSpec("sensor", 1, 0x10000, 16, 128, EventType.INTR1, 2),
        new ChannelSpec("command", 3, 0x20000, 16, 128, EventType.INTR1, 2));

    private Path root;

    @BeforeEach
    void setUp()
    {
        root = Path.of("/dev/shm", "rfmrt-counters-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
    }

    @AfterEach
    void tearDown() throws IOException
    {
        if (Files.exists(root))
        {
            try (Stream<Path> paths = Files.walk(root))
            {
                for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @Test
    void shouldShowEveryCounterAtItsFixedIdAndEachDistinctErrorToAnotherReader() throws Exception
    {
        final Path file = NodeCounters.fileFor("sim:lab?node=2&dma=auto", 2);
        assertThat(file).isEqualTo(root.resolve("lab").resolve("node-2.counters"));
        try (NodeCounters counters = NodeCounters.create(file, 2, "sim:lab?node=2&dma=auto", INPUTS))
        {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-rw----");
            counters.runtime(RuntimeCounter.FRAMES_HANDLED).getAndAdd(41);
            counters.runtime(RuntimeCounter.JOURNAL_DROPS).increment();
            counters.card(RfmCounter.FIFO_OVERFLOWS).setRelease(7);
            counters.journal(CounterIds.JOURNAL_WRITTEN).setRelease(1234);
            counters.frames(1)[FrameCounter.GAPS.id()].getAndAddRelease(5);
            counters.app(AppCounter.DEADLINE_MISSES).setRelease(3);
            counters.app(AppCounter.E2E_P99_NS).setRelease(48_700);
            final RtErrorPolicy policy = new RtErrorPolicy(null, counters);
            final Runnable fail = () -> policy.onError(new IllegalStateException("boom"));
            for (int i = 0; i < 2; i++)
            {
                final Thread failing = new Thread(fail, "worker");
                failing.start();
                failing.join();
            }

            final CountersSnapshot s = CountersSnapshot.read(file);
            assertThat(s.node()).isEqualTo(2);
            assertThat(s.pid()).isEqualTo(ProcessHandle.current().pid());
            assertThat(s.alive()).isTrue();
            assertThat(s.device()).isEqualTo("sim:lab?node=2&dma=auto");
            assertThat(s.channels()).isEqualTo(2);
            assertThat(s.value(CounterIds.runtime(RuntimeCounter.FRAMES_HANDLED))).isEqualTo(41);
            assertThat(s.value(CounterIds.runtime(RuntimeCounter.JOURNAL_DROPS))).isEqualTo(1);
            assertThat(s.value(CounterIds.runtime(RuntimeCounter.ERRORS))).isEqualTo(2);
            assertThat(s.value(CounterIds.card(RfmCounter.FIFO_OVERFLOWS))).isEqualTo(7);
            assertThat(s.value(CounterIds.journal(CounterIds.JOURNAL_WRITTEN))).isEqualTo(1234);
            assertThat(s.value(CounterIds.frame(1, FrameCounter.GAPS))).isEqualTo(5);
            assertThat(s.value(CounterIds.frame(0, FrameCounter.GAPS))).isZero();
            assertThat(s.value(CounterIds.app(AppCounter.DEADLINE_MISSES))).isEqualTo(3);
            assertThat(s.value(CounterIds.app(AppCounter.E2E_P99_NS))).isEqualTo(48_700);
            assertThat(s.value(CounterIds.app(AppCounter.WATCHDOG_TRIPS))).isZero();
            // ids as docs/counters.md lists them, placeholders left out
            assertThat(CounterIds.runtime(RuntimeCounter.EVENTS)).isZero();
            assertThat(CounterIds.card(RfmCounter.FIFO_OVERFLOWS)).isEqualTo(34);
            assertThat(CounterIds.frame(1, FrameCounter.GAPS)).isEqualTo(99);
            assertThat(CounterIds.app(AppCounter.LOOP_CYCLES)).isEqualTo(72);
            assertThat(CounterIds.app(AppCounter.DRIVE_FAULTS)).isEqualTo(79);
            assertThat(s.counters()).hasSize(RuntimeCounter.COUNT + RfmCounter.values().length + 3 +
                AppCounter.COUNT + 2 * FrameCounter.COUNT);
            assertThat(s.counters()).extracting(CountersSnapshot.Counter::label)
                .contains("frames handled", "card: FIFO overflows", "journal records written", "command (node 3): gaps",
                    "app: deadline misses", "app: end-to-end p99 of the last second, ns");
            assertThat(s.counters()).filteredOn(c -> c.id() == 73).singleElement()
                .satisfies(c -> assertThat(c.typeId()).isEqualTo(CounterIds.TYPE_APP));
            assertThat(s.counters()).filteredOn(c -> c.id() == 99).singleElement()
                .satisfies(c -> assertThat(c.typeId()).isEqualTo(CounterIds.TYPE_FRAME));
            // the same error twice is one distinct error observed twice
            assertThat(s.errors()).singleElement().satisfies(e ->
            {
                assertThat(e.count()).isEqualTo(2);
                assertThat(e.text()).startsWith("java.lang.IllegalStateException: boom");
                assertThat(e.lastMs()).isGreaterThanOrEqualTo(e.firstMs());
            });
        }
        assertThat(file).as("removed on an orderly close").doesNotExist();
    }

    @Test
    void shouldReplaceAFileACrashedNodeLeft() throws Exception
    {
        final Path file = NodeCounters.fileFor("sim:lab?node=4", 4);
        Files.write(file, new byte[]{1, 2, 3});
        try (NodeCounters counters = NodeCounters.create(file, 4, "sim:lab?node=4", List.of()))
        {
            counters.runtime(RuntimeCounter.EVENTS).increment();
            assertThat(CountersSnapshot.read(file).value(0)).isEqualTo(1);
            assertThat(CountersSnapshot.read(file).channels()).isZero();
        }
    }

    @Test
    void shouldKeepACardsCountersInAFolderNamedAfterItsDeviceNode()
    {
        assertThat(NodeCounters.fileFor("rfm2g:/dev/rfm2g0?dmaThreshold=never", 1))
            .isEqualTo(root.resolve("rfm2g0/node-1.counters"));
        assertThat(NodeCounters.fileFor("sim:lab1?node=3", 3)).isEqualTo(root.resolve("lab1/node-3.counters"));
        assertThat(NodeCounters.fileFor("rfm2g:/dev/rfm2g1", 9)).isEqualTo(root.resolve("rfm2g1/node-9.counters"));
    }

    @Test
    void shouldRefuseADamagedFileInOneLineNamingIt() throws Exception
    {
        final Path file = NodeCounters.fileFor("sim:lab?node=5", 5);
        final byte[] good;
        try (NodeCounters counters = NodeCounters.create(file, 5, "sim:lab?node=5", INPUTS))
        {
            counters.errorLog().record(new IllegalArgumentException("x"));
            good = Files.readAllBytes(file);
        }
        final int metadata = new UnsafeBuffer(good).getInt(METADATA_LENGTH_OFFSET, BYTE_ORDER);
        final int values = new UnsafeBuffer(good).getInt(VALUES_LENGTH_OFFSET, BYTE_ORDER);
        final int errorLog = HEADER_LENGTH + metadata + values;
        refused(file, good, b -> b.putLong(MAGIC_OFFSET, 42), "is not a counters file");
        refused(file, good, b -> b.putInt(VERSION_OFFSET, 0), "is not filled in yet");
        refused(file, good, b -> b.putInt(VERSION_OFFSET, 9, BYTE_ORDER), "has version 9");
        refused(file, good, b -> b.putInt(NODE_OFFSET, 300, BYTE_ORDER), "names node 300");
        refused(file, good, b -> b.putInt(VALUES_LENGTH_OFFSET, 100, BYTE_ORDER), "do not describe whole counters");
        refused(file, good, b -> b.putInt(VALUES_LENGTH_OFFSET, Integer.MAX_VALUE - 127, BYTE_ORDER),
            "do not describe whole counters");
        refused(file, good, b -> b.putInt(ERROR_LOG_LENGTH_OFFSET, -128, BYTE_ORDER), "error log length -128");
        refused(file, good, b -> b.putInt(ERROR_LOG_LENGTH_OFFSET, 1 << 30, BYTE_ORDER), "its header describes");
        refused(file, good, b -> b.putInt(DEVICE_LENGTH_OFFSET, 1000, BYTE_ORDER), "device name of 1000 bytes");
        refused(file, good, b -> b.putInt(CHANNELS_OFFSET, -1, BYTE_ORDER), "names -1 input channels");
        refused(file, good, b -> b.putInt(HEADER_LENGTH + 3 * CountersReader.METADATA_LENGTH, 7, BYTE_ORDER),
            "has counter 3 in state 7");
        refused(file, good, b -> b.putInt(HEADER_LENGTH + CountersReader.LABEL_OFFSET, 5000, BYTE_ORDER),
            "has counter 0 with a label of 5000 bytes");
        refused(file, good, b -> b.putInt(errorLog, -8, BYTE_ORDER), "error record of -8 bytes");
        refused(file, good, b -> b.putInt(errorLog, 1 << 29, BYTE_ORDER), "error record of 536870912 bytes");
        Files.write(file, java.util.Arrays.copyOf(good, good.length - 64));
        assertThatThrownBy(() -> CountersSnapshot.read(file)).isInstanceOf(CountersFileException.class)
            .hasMessageContaining("its header describes");
        Files.write(file, new byte[10]);
        assertThatThrownBy(() -> CountersSnapshot.read(file)).hasMessageContaining("shorter than the 128-byte header");
        Files.delete(file);
        assertThatThrownBy(() -> CountersSnapshot.read(file)).isInstanceOf(CountersFileException.class)
            .hasMessage("no counters file " + file + " (the node is not running, or runs an rfmrt without counters " +
                "files)");
    }

    private static void refused(final Path file, final byte[] good, final Consumer<UnsafeBuffer> damage,
        final String why) throws IOException
    {
        final byte[] bad = good.clone();
        damage.accept(new UnsafeBuffer(bad));
        Files.write(file, bad);
        assertThatThrownBy(() -> CountersSnapshot.read(file)).isInstanceOf(CountersFileException.class)
            .hasMessageStartingWith("counters file " + file + " ").hasMessageContaining(why)
            .satisfies(ex -> assertThat(ex.getMessage()).doesNotContain("\n"));
    }
}
