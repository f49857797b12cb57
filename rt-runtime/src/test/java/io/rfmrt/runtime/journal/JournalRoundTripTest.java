package io.rfmrt.runtime.journal;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Records from two producing threads come back from the journal field for field and byte for byte.
 */
class JournalRoundTripTest
{
    private static final int RECORDS_PER_WRITER = 20_000;
    private static final int MAX_PAYLOAD = 200;
    private static final int NODE_ID = 7;

    @TempDir
    Path temp;

    @Test
    void shouldReadBackEveryFieldOfEveryRecordFromTwoWriters() throws Exception
    {
        final Path dir = temp.resolve("journal");
        final long before = System.nanoTime();
        final AtomicLong retries = new AtomicLong();
        final JournalStats stats;
        try (Journal journal = Journal.start(JournalConfig.of(dir, NODE_ID)))
        {
            final JournalWriter isr = journal.newWriter("isr");
            final JournalWriter consumer = journal.newWriter("consumer");
            final Thread a = new Thread(() -> produce(isr, 1, retries), "producer-isr");
            final Thread b = new Thread(() -> produce(consumer, 2, retries), "producer-consumer");
            a.start();
            b.start();
            a.join();
            b.join();
            JournalTestSupport.closeNow(journal);
            stats = journal.stats();
            assertThat(isr.dropped() + consumer.dropped()).isEqualTo(retries.get());
        }
        final long after = System.nanoTime();

        assertThat(stats.recordsWritten()).isEqualTo(2L * RECORDS_PER_WRITER);
        assertThat(stats.droppedRingFull()).isEqualTo(retries.get());
        assertThat(stats.droppedByWriter()).containsOnlyKeys("isr", "consumer");
        assertThat(stats.writeErrors()).isZero();
        assertThat(stats.lastError()).isNull();
        assertThat(stats.cpu()).isEqualTo(-1);
        assertThat(stats.affinityError()).isNull();

        final Map<String, Integer> next = new HashMap<>();
        final Map<String, Integer> salts = Map.of("isr", 1, "consumer", 2);
        long lastJournalNanos = before;
        long bytes = 0;
        long lastIndex = -1;
        try (JournalReader reader = JournalReader.open(dir))
        {
            assertThat(reader.index()).isEqualTo(-1);
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                assertThat(reader.index()).isGreaterThan(lastIndex);
                lastIndex = reader.index();
                final String writer = record.writer();
                assertThat(writer).isIn("isr", "consumer");
                assertThat(record.writerId()).isEqualTo("isr".equals(writer) ? 0 : 1);
                assertThat(record.version()).isEqualTo(3);
                assertThat(record.nodeId()).isEqualTo(NODE_ID);
                assertThat(record.journalNanos()).isBetween(lastJournalNanos, after);
                lastJournalNanos = record.journalNanos();
                final int i = next.merge(writer, 1, Integer::sum) - 1;
                bytes += check(record, i, salts.get(writer));
            }
            assertThat(reader.next(record)).isFalse();
        }
        assertThat(next).containsEntry("isr", RECORDS_PER_WRITER).containsEntry("consumer", RECORDS_PER_WRITER);
        assertThat(stats.bytesWritten()).isEqualTo(bytes);
    }

    @Test
    void shouldNameWritersInEveryRollCycleFile() throws Exception
    {
        final Path dir = temp.resolve("rolling");
        int written = 0;
        try (Journal journal = Journal.start(JournalConfig.of(dir, NODE_ID).withRollCycle("TEST_SECONDLY")))
        {
            final JournalWriter writer = journal.newWriter("loop");
            final long end = System.nanoTime() + 2_300_000_000L;
            while (System.nanoTime() < end)
            {
                assertThat(writer.state(written, written + 1, System.nanoTime())).isTrue();
                written++;
                Thread.sleep(20);
            }
        }
        final List<Path> files = queueFiles(dir);
        assertThat(files).hasSizeGreaterThanOrEqualTo(3);

        assertThat(readStates(dir)).isEqualTo(written);

        // a reader of the later files alone still gets the writer names from the header at the start of each file.
        // The first file may hold the header alone: the journal thread writes a cycle's header when the sink turns
        // healthy and record 0 when it drains it, and the cycle may roll in between (seen once with a busy cpu; timing
        // the start to the end of a second did not make it happen). So: whatever the first file held, the rest is
        // every later record, in order, each named
        Files.delete(files.get(0));
        final JournalRecord record = new JournalRecord();
        int read = 0;
        long first = -1;
        try (JournalReader reader = JournalReader.open(dir))
        {
            while (reader.next(record))
            {
                assertThat(record.writer()).isEqualTo("loop");
                assertThat(record.kind()).isEqualTo(RecordKind.STATE);
                first = read == 0 ? record.from() : first;
                assertThat(record.from()).isEqualTo(first + read);
                read++;
            }
        }
        assertThat(read).as("the later files hold the last records").isPositive();
        assertThat(first + read).isEqualTo(written);
    }

    @Test
    void shouldAppendAnotherSessionToTheSameJournal()
    {
        final Path dir = temp.resolve("sessions");
        try (Journal journal = Journal.start(JournalConfig.of(dir, NODE_ID)))
        {
            journal.newWriter("first").state(1, 2, 3);
        }
        try (Journal journal = Journal.start(JournalConfig.of(dir, NODE_ID)))
        {
            journal.newWriter("other");
            journal.newWriter("second").state(4, 5, 6);
        }
        try (JournalReader reader = JournalReader.open(dir))
        {
            final JournalRecord record = new JournalRecord();
            assertThat(reader.next(record)).isTrue();
            assertThat(record.writer()).isEqualTo("first");
            assertThat(record.writerId()).isZero();
            assertThat(record.to()).isEqualTo(2);
            assertThat(reader.next(record)).isTrue();
            assertThat(record.writer()).isEqualTo("second");
            assertThat(record.writerId()).isEqualTo(1);
            assertThat(record.to()).isEqualTo(5);
            assertThat(reader.next(record)).isFalse();
        }
    }

    @Test
    void shouldMakeTheFolderAndFilesGroupShared() throws IOException
    {
        final Path dir = temp.resolve("a").resolve("journal");
        try (Journal journal = Journal.start(JournalConfig.of(dir, NODE_ID)))
        {
            journal.newWriter("w").state(0, 1, 2);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwxrwx---");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.getParent())))
            .isEqualTo("rwxrwx---");
        for (final Path file : queueFiles(dir))
        {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).as("%s", file)
                .isEqualTo("rw-rw----");
        }
    }

    @Test
    void shouldRejectBadWriterNamesAndWritersAfterClose()
    {
        final Journal journal = Journal.start(JournalConfig.of(temp.resolve("names"), NODE_ID));
        journal.newWriter("isr");
        assertThatThrownBy(() -> journal.newWriter("isr")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("isr is taken");
        assertThatThrownBy(() -> journal.newWriter("")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("1-64 characters");
        assertThatThrownBy(() -> journal.newWriter("caf\u00e9")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("US-ASCII");
        journal.close();
        journal.close();
        assertThatThrownBy(() -> journal.newWriter("late")).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("closed");
    }

    @Test
    void shouldCountRecordsOfferedAfterCloseAsDropped()
    {
        final Journal journal = Journal.start(JournalConfig.of(temp.resolve("late"), NODE_ID));
        final JournalWriter writer = journal.newWriter("w");
        assertThat(writer.state(1, 2, 3)).isTrue();
        journal.close();
        assertThat(writer.state(2, 3, 4)).isFalse();
        assertThat(writer.dropped()).isEqualTo(1);
        assertThat(journal.stats().droppedByWriter()).containsEntry("w", 1L);
        assertThat(journal.stats().recordsWritten()).isEqualTo(1);
    }

    @Test
    void shouldRefuseAPayloadOutsideItsBuffer()
    {
        try (Journal journal = Journal.start(JournalConfig.of(temp.resolve("bounds"), NODE_ID)))
        {
            final JournalWriter writer = journal.newWriter("w");
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
            assertThatThrownBy(() -> writer.frame(1, 2, 0, 0, 0, 0, 0, 0, 0, payload, 8, 9))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("offset 8 length 9");
            assertThatThrownBy(() -> writer.counters(0, new long[2], 3))
                .isInstanceOf(IndexOutOfBoundsException.class);
            // nothing was claimed: the ring still works
            assertThat(writer.frame(1, 2, 0, 0, 0, 0, 0, 0, 0, payload, 0, 16)).isTrue();
            assertThat(writer.frame(2, 2, 0, 0, 0, 0, 0, 0, 0, null, 0, 0)).isTrue();
        }
    }

    private static int readStates(final Path dir)
    {
        int count = 0;
        try (JournalReader reader = JournalReader.open(dir))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                assertThat(record.kind()).isEqualTo(RecordKind.STATE);
                assertThat(record.from()).isEqualTo(count);
                assertThat(record.writer()).isEqualTo("loop");
                count++;
            }
        }
        return count;
    }

    static List<Path> queueFiles(final Path dir)
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.filter(file -> file.getFileName().toString().endsWith(".cq4")).sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static void produce(final JournalWriter writer, final int salt, final AtomicLong retries)
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX_PAYLOAD + 16]);
        final long[] counters = new long[8];
        for (int i = 0; i < RECORDS_PER_WRITER; i++)
        {
            while (!offer(writer, i, salt, payload, counters))
            {
                retries.incrementAndGet();
                Thread.onSpinWait();
            }
        }
    }

    private static boolean offer(
        final JournalWriter writer, final int i, final int salt, final UnsafeBuffer payload, final long[] counters)
    {
        final long base = salt * 1_000_000_000L + i;
        switch (i % 5)
        {
            case 0 ->
            {
                final int length = i % MAX_PAYLOAD;
                final int offset = i % 16;
                for (int j = 0; j < length; j++)
                {
                    payload.putByte(offset + j, payloadByte(i, j, salt));
                }
                return writer.frame(base, salt, i & 0xFFFF, ~i, base + 1, base + 2, base + 3, base + 4, base + 5,
                    payload, offset, length);
            }
            case 1 ->
            {
                return writer.fault(i, base, -base, base + 7);
            }
            case 2 ->
            {
                return writer.state(i, i + salt, base);
            }
            case 3 ->
            {
                final int count = i % counters.length;
                for (int k = 0; k < count; k++)
                {
                    counters[k] = base * k;
                }
                return writer.counters(base, counters, count);
            }
            default ->
            {
                return writer.sample(i % 3, base, i, salt, i + 0.5, i + 1.5, -i, Math.PI * i, Double.NaN,
                    1.0 / (i + 1));
            }
        }
    }

    private static byte payloadByte(final int i, final int j, final int salt)
    {
        return (byte)(i * 31 + j * 7 + salt);
    }

    /**
     * @return bytes the record takes in the journal, to compare with the stats.
     */
    private static long check(final JournalRecord record, final int i, final int salt)
    {
        final long base = salt * 1_000_000_000L + i;
        switch (i % 5)
        {
            case 0 ->
            {
                assertThat(record.kind()).isEqualTo(RecordKind.FRAME);
                assertThat(record.seq()).isEqualTo(base);
                assertThat(record.source()).isEqualTo(salt);
                assertThat(record.flags()).isEqualTo(i & 0xFFFF);
                assertThat(record.crc32c()).isEqualTo(~i);
                assertThat(record.sendNanos()).isEqualTo(base + 1);
                assertThat(record.wokeNanos()).isEqualTo(base + 2);
                assertThat(record.validatedNanos()).isEqualTo(base + 3);
                assertThat(record.consumerStartNanos()).isEqualTo(base + 4);
                assertThat(record.handlerEndNanos()).isEqualTo(base + 5);
                final int length = i % MAX_PAYLOAD;
                assertThat(record.payloadLength()).isEqualTo(length);
                for (int j = 0; j < length; j++)
                {
                    if (record.payload().getByte(record.payloadOffset() + j) != payloadByte(i, j, salt))
                    {
                        throw new AssertionError("payload byte " + j + " of frame " + i + " of writer " +
                            record.writer());
                    }
                }
                return 16 + 64 + length;
            }
            case 1 ->
            {
                assertThat(record.kind()).isEqualTo(RecordKind.FAULT);
                assertThat(record.code()).isEqualTo(i);
                assertThat(record.seq()).isEqualTo(base);
                assertThat(record.value()).isEqualTo(-base);
                assertThat(record.nanos()).isEqualTo(base + 7);
                return 16 + 32;
            }
            case 2 ->
            {
                assertThat(record.kind()).isEqualTo(RecordKind.STATE);
                assertThat(record.from()).isEqualTo(i);
                assertThat(record.to()).isEqualTo(i + salt);
                assertThat(record.nanos()).isEqualTo(base);
                return 16 + 16;
            }
            case 3 ->
            {
                assertThat(record.kind()).isEqualTo(RecordKind.COUNTERS);
                final int count = i % 8;
                assertThat(record.counterCount()).isEqualTo(count);
                assertThat(record.nanos()).isEqualTo(base);
                for (int k = 0; k < count; k++)
                {
                    assertThat(record.counter(k)).isEqualTo(base * k);
                }
                return 16 + 16 + 8L * count;
            }
            default ->
            {
                assertThat(record.kind()).isEqualTo(RecordKind.SAMPLE);
                assertThat(record.sampleKind()).isEqualTo(i % 3);
                assertThat(record.nanos()).isEqualTo(base);
                assertThat(record.cycle()).isEqualTo(i);
                assertThat(record.state()).isEqualTo(salt);
                assertThat(record.value(0)).isEqualTo(i + 0.5);
                assertThat(record.value(1)).isEqualTo(i + 1.5);
                assertThat(record.value(2)).isEqualTo(-i);
                assertThat(record.value(3)).isEqualTo(Math.PI * i);
                assertThat(record.value(4)).isNaN();
                assertThat(record.value(5)).isEqualTo(1.0 / (i + 1));
                return 16 + 72;
            }
        }
    }
}
