package io.rfmrt.runtime.journal;

import io.rfmrt.runtime.journal.internal.JournalRecordDescriptor;
import io.rfmrt.runtime.threads.CpuSet;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A full ring drops and counts exactly; pinning the journal thread works or is reported, never fatal.
 */
class JournalDropTest
{
    @TempDir
    Path temp;

    @Test
    void shouldCountEveryRecordDroppedWhileTheJournalThreadIsStalled()
    {
        final Path dir = temp.resolve("journal");
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[100]);
        long accepted = 0;
        long faults = 0;
        long refused = 0;
        final JournalStats stats;
        try (Journal journal = Journal.start(JournalConfig.of(dir, 1).withRingCapacityBytes(4096)))
        {
            final JournalWriter writer = journal.newWriter("isr");
            final JournalWriter other = journal.newWriter("other");
            journal.pauseForTest();
            while (writer.frame(accepted, 2, 0, 0, 1, 2, 3, 4, 5, payload, 0, 100))
            {
                accepted++;
            }
            refused++;
            for (int i = 0; i < 1000; i++)
            {
                if (writer.fault(i, i, i, i))
                {
                    faults++;
                }
                else
                {
                    refused++;
                }
            }
            // a 4 KiB ring of 176-byte frame messages; a smaller fault may still fit in what is left
            assertThat(accepted).isBetween(20L, 4096L / 176);
            assertThat(faults).isLessThan(176 / 40);
            assertThat(refused).isEqualTo(1001 - faults);
            assertThat(writer.dropped()).isEqualTo(refused);
            assertThat(journal.stats().droppedByWriter()).containsEntry("isr", refused).containsEntry("other", 0L);

            // a record bigger than 1/8 of the ring never fits: dropped and counted too
            assertThat(other.frame(0, 2, 0, 0, 0, 0, 0, 0, 0, new UnsafeBuffer(new byte[1024]), 0, 1024)).isFalse();
            assertThat(other.dropped()).isEqualTo(1);

            journal.resumeForTest();
            JournalTestSupport.closeNow(journal);
            stats = journal.stats();
        }
        assertThat(stats.recordsWritten()).isEqualTo(accepted + faults);
        assertThat(stats.droppedRingFull()).isEqualTo(refused + 1);
        assertThat(stats.droppedByWriter()).containsEntry("isr", refused).containsEntry("other", 1L);
        assertThat(stats.writeErrors()).isZero();

        long read = 0;
        try (JournalReader reader = JournalReader.open(dir))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                assertThat(record.kind()).isEqualTo(read < accepted ? RecordKind.FRAME : RecordKind.FAULT);
                assertThat(record.seq()).isEqualTo(read < accepted ? read : read - accepted);
                read++;
            }
        }
        assertThat(read).isEqualTo(accepted + faults);
    }

    @Test
    void shouldGoOnAfterTheRingEmptiesAgain()
    {
        try (Journal journal = Journal.start(JournalConfig.of(temp.resolve("again"), 1).withRingCapacityBytes(4096)))
        {
            final JournalWriter writer = journal.newWriter("w");
            journal.pauseForTest();
            int accepted = 0;
            while (writer.state(accepted, 0, 0))
            {
                accepted++;
            }
            journal.resumeForTest();
            // the ring frees its space when the journal thread finishes a batch; until then offers still fail
            final long deadline = System.nanoTime() + 5_000_000_000L;
            long refused = 1;
            while (!writer.state(accepted, 0, 0))
            {
                refused++;
                assertThat(System.nanoTime()).as("ring still full").isLessThan(deadline);
                Thread.yield();
            }
            accepted++;
            assertThat(writer.dropped()).isEqualTo(refused);
            JournalTestSupport.closeNow(journal);
            assertThat(journal.stats().recordsWritten()).isEqualTo(accepted);
        }
    }

    @Test
    void shouldQueueARecordOfExactlyTheLargestMessageAndDropOneByteMore()
    {
        final Path dir = temp.resolve("bound");
        final int ringBytes = 4096;
        // Agrona's ring takes messages up to 1/8 of its capacity
        final int largest = ringBytes / 8 - JournalRecordDescriptor.FRAME_FIXED_LENGTH;
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[largest + 1]);
        for (int i = 0; i <= largest; i++)
        {
            payload.putByte(i, (byte)i);
        }
        try (Journal journal = Journal.start(JournalConfig.of(dir, 1).withRingCapacityBytes(ringBytes)))
        {
            final JournalWriter writer = journal.newWriter("w");
            assertThat(writer.frame(1, 2, 0, 0, 0, 0, 0, 0, 0, payload, 0, largest)).isTrue();
            assertThat(writer.frame(2, 2, 0, 0, 0, 0, 0, 0, 0, payload, 0, largest + 1)).isFalse();
            assertThat(writer.dropped()).isEqualTo(1);
            JournalTestSupport.closeNow(journal);
            assertThat(journal.stats().recordsWritten()).isEqualTo(1);
        }
        try (JournalReader reader = JournalReader.open(dir))
        {
            final JournalRecord record = new JournalRecord();
            assertThat(reader.next(record)).isTrue();
            assertThat(record.seq()).isEqualTo(1);
            assertThat(record.payloadLength()).isEqualTo(largest);
            assertThat(record.payload().getByte(record.payloadOffset() + largest - 1)).isEqualTo((byte)(largest - 1));
            assertThat(reader.next(record)).isFalse();
        }
    }

    private static CpuSet allowedCpus()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("Cpus_allowed_list:"))
                {
                    return CpuSet.parse(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        throw new AssertionError("no Cpus_allowed_list in /proc/self/status");
    }

    @Test
    void shouldPinTheJournalThreadOrReportWhyNot()
    {
        final int cpu = Runtime.getRuntime().availableProcessors() - 1;
        try (RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")),
            warning -> { });
            Journal journal = Journal.start(JournalConfig.of(temp.resolve("pinned"), 1).withCpu(cpu),
                env.threadFactory(cpu, 0)))
        {
            journal.newWriter("w").state(0, 1, 2);
            JournalTestSupport.closeNow(journal);
            final JournalStats stats = journal.stats();
            assertThat(stats.recordsWritten()).isEqualTo(1);
            // the outcome follows from the host: pinned when this process may run on the cpu, reported when not
            if (allowedCpus().contains(cpu))
            {
                assertThat(stats.affinityError()).isNull();
                assertThat(stats.cpu()).isEqualTo(cpu);
                // placed by the environment's factory, so it is in its table
                assertThat(env.placements()).anyMatch(p -> p.thread().equals(Journal.THREAD_NAME) &&
                    p.actualCpu() == cpu);
            }
            else
            {
                assertThat(stats.cpu()).isEqualTo(-1);
                assertThat(stats.affinityError()).contains("cpu " + cpu);
            }
        }
    }

    @Test
    void shouldReportACpuThatDoesNotExistAndStillJournal()
    {
        final int cpu = 4095;
        try (Journal journal = Journal.start(JournalConfig.of(temp.resolve("nocpu"), 1).withCpu(cpu)))
        {
            journal.newWriter("w").state(0, 1, 2);
            JournalTestSupport.closeNow(journal);
            final JournalStats stats = journal.stats();
            assertThat(stats.recordsWritten()).isEqualTo(1);
            assertThat(stats.cpu()).isEqualTo(-1);
            assertThat(stats.affinityError()).startsWith("journal thread not pinned to cpu 4095");
        }
    }
}
