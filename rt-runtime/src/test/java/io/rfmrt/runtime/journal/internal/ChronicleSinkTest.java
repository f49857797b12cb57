package io.rfmrt.runtime.journal.internal;

import io.rfmrt.runtime.journal.RecordKind;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class ChronicleSinkTest
{
    private static final byte[][] WRITERS = {"rfmrt-isr".getBytes(StandardCharsets.US_ASCII)};

    @TempDir
    Path dir;

    @Test
    void shouldWriteTheHeaderAtTheFirstCheckThenTheRecord() throws IOException
    {
        final ChronicleSink sink = new ChronicleSink(dir, JournalFiles.open(dir, ChronicleSupport.rollCycle("HOURLY")), 7, 0,
            () -> 1_700_000_000_000L);
        final UnsafeBuffer payload = new UnsafeBuffer(ByteBuffer.allocateDirect(16));
        payload.putLong(0, 42L);

        assertThat(sink.ready(1_000L, WRITERS)).isTrue();
        final int length = sink.write(RecordKind.FAULT.id(), 0, WRITERS, payload, 0, 8, 2_000L);
        sink.close();

        assertThat(length).isEqualTo(JournalRecordDescriptor.RECORD_HEADER_LENGTH + 8);
        assertThat(sink.lastError()).isNull();
        try (Stream<Path> files = Files.list(dir))
        {
            assertThat(files.filter(f -> f.toString().endsWith(".cq4")).count()).isEqualTo(1);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("metadata.cq4t"))))
            .isEqualTo("rw-rw----");
        final List<String> seen = new ArrayList<>();
        try (SingleChronicleQueue queue = JournalFiles.open(dir, ChronicleSupport.rollCycle("HOURLY"));
            ExcerptTailer tailer = queue.createTailer())
        {
            while (true)
            {
                try (DocumentContext doc = tailer.readingDocument())
                {
                    if (!doc.isPresent())
                    {
                        break;
                    }
                    final Bytes<?> bytes = doc.wire().bytes();
                    final int version = bytes.readByte();
                    final int kind = bytes.readByte();
                    final int writer = bytes.readShort();
                    final int node = bytes.readInt();
                    final long nanos = bytes.readLong();
                    seen.add("v" + version + " kind " + kind + " writer " + writer + " node " + node + " at " + nanos +
                        (kind == JournalRecordDescriptor.HEADER_KIND_ID ? " magic " + (bytes.readLong() ==
                        JournalRecordDescriptor.MAGIC) + " epoch " + bytes.readLong() : " value " + bytes.readLong()));
                }
            }
        }
        final int v = JournalRecordDescriptor.VERSION;
        assertThat(seen).containsExactly(
            "v" + v + " kind " + JournalRecordDescriptor.HEADER_KIND_ID + " writer " +
                (short)JournalRecordDescriptor.NO_WRITER + " node 7 at 1000 magic true epoch 1700000000000",
            "v" + v + " kind " + RecordKind.FAULT.id() + " writer 0 node 7 at 2000 value 42");
    }

    @Test
    void shouldRefuseToWriteBelowTheFreeSpaceFloorAndSaySo()
    {
        final ChronicleSink sink = new ChronicleSink(dir, JournalFiles.open(dir, ChronicleSupport.rollCycle("HOURLY")), 7,
            Long.MAX_VALUE, () -> 0L);

        assertThat(sink.ready(1_000L, WRITERS)).isFalse();
        assertThat(sink.lastError()).contains("disk full").contains("below the floor of " + Long.MAX_VALUE);
        assertThat(sink.ready(1_000L + ChronicleSink.RETRY_INTERVAL_NS - 1, WRITERS)).isFalse();
        sink.close();
    }
}
