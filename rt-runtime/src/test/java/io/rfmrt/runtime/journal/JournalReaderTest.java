package io.rfmrt.runtime.journal;

import io.rfmrt.runtime.journal.internal.ChronicleSupport;
import io.rfmrt.runtime.journal.internal.JournalRecordDescriptor;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the reader does with folders that are not journals and with records it cannot understand.
 */
class JournalReaderTest
{
    @TempDir
    Path temp;

    @Test
    void shouldRefuseAMissingFolder()
    {
        final Path dir = temp.resolve("nothing-here");
        assertThatThrownBy(() -> JournalReader.open(dir)).isInstanceOf(JournalException.class)
            .hasMessage("journal dir " + dir + " does not exist");
    }

    @Test
    void shouldRefuseAFile() throws IOException
    {
        final Path file = Files.writeString(temp.resolve("file"), "x");
        assertThatThrownBy(() -> JournalReader.open(file)).isInstanceOf(JournalException.class)
            .hasMessage("journal dir " + file + " is not a folder");
    }

    @Test
    void shouldRefuseAnEmptyFolder()
    {
        assertThatThrownBy(() -> JournalReader.open(temp)).isInstanceOf(JournalException.class)
            .hasMessage("journal dir " + temp + " holds no journal (no .cq4 queue file)");
    }

    @Test
    void shouldRefuseAQueueThatIsNotAJournal()
    {
        final Path dir = temp.resolve("other");
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir).build())
        {
            queue.createAppender().writeText("hello from another application");
        }
        assertThatThrownBy(() -> JournalReader.open(dir)).isInstanceOf(JournalException.class)
            .hasMessageStartingWith("journal dir " + dir + " is not an rfmrt journal: its first record (")
            .hasMessageEndingWith("is not a journal header");
    }

    @Test
    void shouldReadAnEmptyJournal()
    {
        final Path dir = temp.resolve("empty");
        Journal.start(JournalConfig.of(dir, 1)).close();
        try (JournalReader reader = JournalReader.open(dir))
        {
            assertThat(reader.next(new JournalRecord())).isFalse();
            assertThat(reader.index()).isEqualTo(-1);
        }
    }

    @Test
    void shouldExposeTheJournalHeaderItRead()
    {
        final Path dir = temp.resolve("header");
        final long millisBefore = System.currentTimeMillis();
        final long nanosBefore = System.nanoTime();
        try (Journal journal = Journal.start(JournalConfig.of(dir, 7)))
        {
            final JournalWriter first = journal.newWriter("consumer");
            assertThat(first.state(0, 1, 100)).isTrue();
            // a writer added later: the journal thread writes another header naming both
            final JournalWriter second = journal.newWriter("watchdog");
            while (!second.state(1, 2, 200))
            {
                Thread.onSpinWait();
            }
        }
        final long nanosAfter = System.nanoTime();
        final long millisAfter = System.currentTimeMillis();
        try (JournalReader reader = JournalReader.open(dir))
        {
            // open() has read the first header already: it is there before the first record
            final JournalHeader header = reader.header();
            assertThat(header).isNotNull();
            assertThat(header.nodeId()).isEqualTo(7);
            assertThat(header.version()).as("record version").isEqualTo(JournalRecordDescriptor.VERSION);
            assertThat(header.epochMillis()).isBetween(millisBefore, millisAfter);
            assertThat(header.nanos()).isBetween(nanosBefore, nanosAfter);
            assertThat(header.journalNanos()).isBetween(nanosBefore, nanosAfter);
            final JournalRecord record = new JournalRecord();
            int records = 0;
            while (reader.next(record))
            {
                records++;
                assertThat(record.writer()).isEqualTo(reader.lastHeader().writers().get(record.writerId()));
            }
            assertThat(records).isEqualTo(2);
            assertThat(reader.header()).isSameAs(header);
            assertThat(reader.headerCount()).isGreaterThanOrEqualTo(2);
            assertThat(reader.lastHeader().writers()).containsExactly("consumer", "watchdog");
            assertThat(reader.lastHeader().nanos()).isGreaterThanOrEqualTo(header.nanos());
        }
    }

    @Test
    void shouldEndCleanlyAtARecordThatIsStillBeingWritten()
    {
        final Path dir = journalOfThreeStates();
        try (SingleChronicleQueue queue = rawQueue(dir))
        {
            final ExcerptAppender appender = queue.createAppender();
            final DocumentContext unfinished = appender.writingDocument();
            unfinished.wire().bytes().writeByte((byte)2).writeByte((byte)RecordKind.STATE.id()).writeInt(0);

            // a writer that died here leaves the same incomplete header behind
            final JournalRecord record = new JournalRecord();
            try (JournalReader reader = JournalReader.open(dir))
            {
                for (int i = 0; i < 3; i++)
                {
                    assertThat(reader.next(record)).isTrue();
                    assertThat(record.from()).isEqualTo(i);
                }
                final long last = reader.index();
                assertThat(reader.next(record)).isFalse();
                assertThat(reader.next(record)).isFalse();
                assertThat(reader.index()).isEqualTo(last);
            }
            unfinished.rollbackOnClose();
            unfinished.close();
        }
    }

    @Test
    void shouldReadLivePastAnUnfinishedRecordWithRecordsAfterItOnceItHasStoodASecond() throws IOException
    {
        // the second of three records marked unfinished (length 0), as a writer that died on it or a damaged header
        // leaves it, with the third record after it
        final Path dir = journalOfThreeStates(temp.resolve("stuck"));
        markUnfinished(dir, 1);
        final long[] now = {1_000_000_000L};
        final JournalRecord record = new JournalRecord();
        try (JournalReader reader = JournalReader.open(dir, true, () -> now[0]))
        {
            assertThat(reader.next(record)).isTrue();
            assertThat(record.from()).isEqualTo(0);
            // live, it may be the record being written: the end for now
            assertThat(reader.next(record)).isFalse();
            now[0] += FramingWalk.UNFINISHED_STALL_NANOS - 1;
            assertThat(reader.next(record)).isFalse();
            assertThat(reader.damage()).isEmpty();
            // unfinished for a second with a record after it: no writer is at work on it
            now[0] += 1;
            assertThat(reader.next(record)).isTrue();
            assertThat(record.from()).isEqualTo(2);
            assertThat(reader.damage()).singleElement().asString()
                .contains("a document of 0 bytes that its writer never completed; reading resumed at byte");
            assertThat(reader.next(record)).isFalse();
        }
        // offline the same at once
        try (JournalReader reader = JournalReader.open(dir))
        {
            assertThat(reader.next(record)).isTrue();
            assertThat(reader.next(record)).isTrue();
            assertThat(record.from()).isEqualTo(2);
            assertThat(reader.damageCount()).isEqualTo(1);
        }
    }

    @Test
    void shouldWaitLiveAtAnUnfinishedLastRecordHoweverLongItStands() throws IOException
    {
        final Path dir = journalOfThreeStates(temp.resolve("tail"));
        markUnfinished(dir, 2);
        final long[] now = {1_000_000_000L};
        final JournalRecord record = new JournalRecord();
        try (JournalReader reader = JournalReader.open(dir, true, () -> now[0]))
        {
            assertThat(reader.next(record)).isTrue();
            assertThat(reader.next(record)).isTrue();
            for (int i = 0; i < 5; i++)
            {
                assertThat(reader.next(record)).isFalse();
                now[0] += FramingWalk.UNFINISHED_STALL_NANOS;
            }
            assertThat(reader.damage()).isEmpty();
            assertThat(record.from()).isEqualTo(1);
        }
    }

    /** Set the not-complete bit, length 0, in the Chronicle header of the record of index {@code k}. */
    private static void markUnfinished(final Path dir, final int k) throws IOException
    {
        long position = -1;
        try (JournalReader reader = JournalReader.open(dir))
        {
            final JournalRecord record = new JournalRecord();
            for (int i = 0; i <= k; i++)
            {
                assertThat(reader.next(record)).isTrue();
            }
            position = reader.position();
        }
        final Path file;
        try (var files = Files.list(dir))
        {
            file = files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
            java.nio.file.StandardOpenOption.WRITE))
        {
            final java.nio.ByteBuffer header = java.nio.ByteBuffer.allocate(Integer.BYTES)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(0, 0x8000_0000);
            assertThat(channel.write(header, position)).isEqualTo(Integer.BYTES);
        }
    }

    @Test
    void shouldRefuseAJournalOfTheOldNumberingNamingTheFileAndBothVersions() throws IOException
    {
        final Path dir = temp.resolve("old");
        // a version 1 journal header, as rfmrt wrote it before the codes had explicit ids
        append(dir, bytes -> bytes.writeByte((byte)1).writeByte((byte)JournalRecordDescriptor.HEADER_KIND_ID)
            .writeShort((short)JournalRecordDescriptor.NO_WRITER).writeInt(1).writeLong(0)
            .writeLong(JournalRecordDescriptor.MAGIC).writeLong(0).writeLong(0).writeInt(0).writeInt(0));
        final Path file;
        try (var files = Files.list(dir))
        {
            file = files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        assertThatThrownBy(() -> JournalReader.open(dir)).isInstanceOf(JournalException.class)
            .hasMessage("journal file " + file + " has record version 1 (codes numbered by position); this rfmrt " +
                "reads versions 2 and 3 only: replay it with the rfmrt that wrote it");
    }

    @Test
    void shouldReportAnUnknownVersionAsDamageAndGoOn()
    {
        final Path dir = journalOfThreeStates();
        append(dir, bytes -> bytes.writeByte((byte)9).writeByte((byte)RecordKind.STATE.id()).writeShort((short)0)
            .writeInt(1).writeLong(0).writeLong(0).writeLong(0));
        final JournalRecord record = new JournalRecord();
        try (JournalReader reader = JournalReader.open(dir))
        {
            for (int i = 0; i < 3; i++)
            {
                assertThat(reader.next(record)).isTrue();
            }
            assertThat(reader.next(record)).isFalse();
            assertThat(reader.damage()).hasSize(1);
            assertThat(reader.damage().get(0)).startsWith(dir.toString())
                .contains(", record 5 of the file, byte ")
                .contains(": a record of 32 bytes that has layout version 9; this reader knows versions 2 and 3 only " +
                    "(written by a newer rfmrt?); nothing readable after it in this file");
        }
    }

    @Test
    void shouldReportAnUnknownKindAndAShortRecord()
    {
        final Path dir = journalOfThreeStates();
        append(dir, bytes -> bytes.writeByte((byte)2).writeByte((byte)42).writeShort((short)0)
            .writeInt(1).writeLong(0).writeLong(0));
        try (JournalReader reader = skipThree(dir))
        {
            assertThat(reader.next(new JournalRecord())).isFalse();
            assertThat(reader.damage()).singleElement().asString()
                .contains("a record of 24 bytes that has unknown kind 42");
        }

        final Path other = temp.resolve("short");
        journalOfThreeStates(other);
        append(other, bytes -> bytes.writeByte((byte)2).writeByte((byte)RecordKind.FRAME.id()).writeShort((short)0)
            .writeInt(1).writeLong(0).writeLong(7).writeShort((short)2));
        try (JournalReader reader = skipThree(other))
        {
            assertThat(reader.next(new JournalRecord())).isFalse();
            assertThat(reader.damage()).singleElement().asString()
                .contains("a record of 26 bytes that is a FRAME record with a body of 10 bytes; it needs 64");
        }
    }

    @Test
    void shouldRefuseAccessorsOfAnotherKind()
    {
        final Path dir = journalOfThreeStates();
        final JournalRecord record = new JournalRecord();
        assertThat(record.kind()).isNull();
        assertThat(record).hasToString("JournalRecord{empty}");
        try (JournalReader reader = JournalReader.open(dir))
        {
            assertThat(reader.next(record)).isTrue();
            assertThat(record.kind()).isEqualTo(RecordKind.STATE);
            assertThatThrownBy(record::seq).isInstanceOf(IllegalStateException.class)
                .hasMessage("seq() is not valid for a STATE record");
            assertThatThrownBy(record::payload).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> record.value(0)).isInstanceOf(IllegalStateException.class);
            assertThat(record.toString()).isEqualTo(
                "STATE node=5 writer=w journalNanos=" + record.journalNanos() + " from=0 to=1 nanos=100");
        }
        final JournalReader closed = JournalReader.open(dir);
        closed.close();
        closed.close();
        assertThatThrownBy(() -> closed.next(record)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("closed");
    }

    @Test
    void shouldHaveStableKindIds()
    {
        assertThat(RecordKind.FRAME.id()).isEqualTo(1);
        assertThat(RecordKind.FAULT.id()).isEqualTo(2);
        assertThat(RecordKind.STATE.id()).isEqualTo(3);
        assertThat(RecordKind.COUNTERS.id()).isEqualTo(4);
        assertThat(RecordKind.SAMPLE.id()).isEqualTo(5);
        for (final RecordKind kind : RecordKind.values())
        {
            assertThat(RecordKind.fromId(kind.id())).isSameAs(kind);
        }
        assertThat(RecordKind.fromId(0)).isNull();
        assertThat(RecordKind.fromId(127)).isNull();
        assertThat(RecordKind.fromId(-1)).isNull();
    }

    @Test
    void shouldRecordTheNodesLayoutInEveryJournalHeader()
    {
        final Path dir = temp.resolve("layout");
        final String layout = "memorySize: 1048576\nchannels:\n  - {name: \"s\", node: 1, offset: 0x1000, slots: 8, " +
            "slotSize: 128, event: INTR1, to: 2}\nvariables: []\n";
        try (Journal journal = Journal.start(JournalConfig.of(dir, 2).withLayout(layout)))
        {
            final JournalWriter writer = journal.newWriter("consumer");
            while (!writer.state(0, 1, 100))
            {
                Thread.onSpinWait();
            }
        }
        try (JournalReader reader = JournalReader.open(dir))
        {
            assertThat(reader.header().version()).isEqualTo(3);
            assertThat(reader.header().layout()).isEqualTo(layout);
            assertThat(reader.file()).isNotNull().hasParent(dir);
            final JournalRecord record = new JournalRecord();
            assertThat(reader.next(record)).isTrue();
            assertThat(record.version()).isEqualTo(3);
            assertThat(reader.lastHeader().layout()).isEqualTo(layout);
            assertThat(reader.damage()).isEmpty();
        }
    }

    @Test
    void shouldReadAVersion2JournalWhoseHeaderHasNoLayout()
    {
        final Path dir = temp.resolve("v2");
        // a version 2 journal header naming one writer, as rfmrt wrote it before the layout, then a STATE record
        append(dir, bytes -> bytes.writeByte((byte)2).writeByte((byte)JournalRecordDescriptor.HEADER_KIND_ID)
            .writeShort((short)JournalRecordDescriptor.NO_WRITER).writeInt(4).writeLong(5)
            .writeLong(JournalRecordDescriptor.MAGIC).writeLong(6).writeLong(7).writeInt(1).writeInt(0)
            .writeShort((short)0).writeShort((short)3).write("isr".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        append(dir, bytes -> bytes.writeByte((byte)2).writeByte((byte)RecordKind.STATE.id()).writeShort((short)0)
            .writeInt(4).writeLong(8).writeLong(9).writeInt(1).writeInt(2));
        try (JournalReader reader = JournalReader.open(dir))
        {
            assertThat(reader.header().version()).isEqualTo(2);
            assertThat(reader.header().layout()).isNull();
            assertThat(reader.header().writers()).containsExactly("isr");
            final JournalRecord record = new JournalRecord();
            assertThat(reader.next(record)).isTrue();
            assertThat(record.kind()).isEqualTo(RecordKind.STATE);
            assertThat(record.writer()).isEqualTo("isr");
            assertThat(record.to()).isEqualTo(2);
            assertThat(reader.next(record)).isFalse();
            assertThat(reader.damage()).isEmpty();
        }
    }

    @Test
    void shouldReportAVersion3HeaderWhoseLayoutLengthDoesNotMatchAsDamage()
    {
        final Path dir = journalOfThreeStates();
        append(dir, bytes -> bytes.writeByte((byte)3).writeByte((byte)JournalRecordDescriptor.HEADER_KIND_ID)
            .writeShort((short)JournalRecordDescriptor.NO_WRITER).writeInt(1).writeLong(0)
            .writeLong(JournalRecordDescriptor.MAGIC).writeLong(0).writeLong(0).writeInt(0).writeInt(100)
            .write("memorySize: 4096".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        try (JournalReader reader = skipThree(dir))
        {
            assertThat(reader.next(new JournalRecord())).isFalse();
            assertThat(reader.damage()).singleElement().asString()
                .contains("is a journal header with layout length 100");
        }
    }

    private Path journalOfThreeStates()
    {
        return journalOfThreeStates(temp.resolve("journal"));
    }

    private static Path journalOfThreeStates(final Path dir)
    {
        try (Journal journal = Journal.start(JournalConfig.of(dir, 5)))
        {
            final JournalWriter writer = journal.newWriter("w");
            for (int i = 0; i < 3; i++)
            {
                assertThat(writer.state(i, i + 1, 100 + i)).isTrue();
            }
        }
        return dir;
    }

    private static JournalReader skipThree(final Path dir)
    {
        final JournalReader reader = JournalReader.open(dir);
        final JournalRecord record = new JournalRecord();
        for (int i = 0; i < 3; i++)
        {
            assertThat(reader.next(record)).isTrue();
        }
        return reader;
    }

    private static SingleChronicleQueue rawQueue(final Path dir)
    {
        return SingleChronicleQueueBuilder.binary(dir).rollCycle(ChronicleSupport.rollCycle("HOURLY")).build();
    }

    private static void append(final Path dir, final Consumer<Bytes<?>> body)
    {
        try (SingleChronicleQueue queue = rawQueue(dir);
            ExcerptAppender appender = queue.createAppender();
            DocumentContext context = appender.writingDocument())
        {
            body.accept(context.wire().bytes());
        }
    }
}
