package io.rfmrt.runtime.counters;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.errors.ErrorLogReader;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static io.rfmrt.runtime.counters.CountersFileDescriptor.*;

/**
 * One reading of a node's counters file, as another process sees it (what {@code rfmrt stat} shows): the file is
 * copied, the copy checked by {@link CountersFileDescriptor#validate}, then read with Agrona's
 * {@link CountersReader} and {@link ErrorLogReader}. A live node keeps writing while the copy is made; each value is
 * an aligned 64-bit word, so each is one the node wrote.
 *
 * @param file     the file read.
 * @param node     the node id.
 * @param pid      the node's process.
 * @param alive    whether that process is alive now (a file of a dead one is a crashed node's).
 * @param startMs  when the node made the file, ms since the epoch.
 * @param device   the node's device URI.
 * @param channels its input channels.
 * @param counters every counter but the placeholders, by id.
 * @param errors   its distinct errors, in the order they first happened.
 */
public record CountersSnapshot(Path file, int node, long pid, boolean alive, long startMs, String device,
    int channels, List<Counter> counters, List<DistinctError> errors)
{
    /**
     * One counter.
     *
     * @param id     its counter id.
     * @param typeId its type id ({@link CounterIds}).
     * @param label  its label.
     * @param value  its value.
     */
    public record Counter(int id, int typeId, String label, long value)
    {
    }

    /**
     * One distinct error.
     *
     * @param count   times it happened.
     * @param firstMs first time, ms since the epoch.
     * @param lastMs  last time.
     * @param text    the error and its stack trace.
     */
    public record DistinctError(int count, long firstMs, long lastMs, String text)
    {
    }

    /**
     * The counter of a given id.
     *
     * @param id a counter id.
     * @return its value, or -1 when the file has no such counter.
     */
    public long value(final int id)
    {
        for (final Counter c : counters)
        {
            if (c.id() == id)
            {
                return c.value();
            }
        }
        return -1;
    }

    /**
     * Read a counters file.
     *
     * @param file the file.
     * @return what it holds.
     * @throws CountersFileException one line naming the file and what is wrong with it.
     */
    public static CountersSnapshot read(final Path file)
    {
        final byte[] bytes = copy(file);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final String problem = CountersFileDescriptor.validate(buffer, bytes.length);
        if (problem != null)
        {
            throw new CountersFileException("counters file " + file + " " + problem);
        }
        final int metadata = buffer.getInt(METADATA_LENGTH_OFFSET, BYTE_ORDER);
        final int values = buffer.getInt(VALUES_LENGTH_OFFSET, BYTE_ORDER);
        final int errorLength = buffer.getInt(ERROR_LOG_LENGTH_OFFSET, BYTE_ORDER);
        final CountersReader reader = new CountersReader(new UnsafeBuffer(bytes, HEADER_LENGTH, metadata),
            new UnsafeBuffer(bytes, HEADER_LENGTH + metadata, values), StandardCharsets.US_ASCII);
        final List<Counter> counters = new ArrayList<>();
        reader.forEach((id, typeId, key, label) ->
        {
            if (typeId != CounterIds.TYPE_RESERVED)
            {
                counters.add(new Counter(id, typeId, label, reader.getCounterValue(id)));
            }
        });
        final List<DistinctError> errors = new ArrayList<>();
        if (errorLength > 0)
        {
            ErrorLogReader.read(new UnsafeBuffer(bytes, HEADER_LENGTH + metadata + values, errorLength),
                (count, first, last, text) -> errors.add(new DistinctError(count, first, last, text)));
        }
        final long pid = buffer.getLong(PID_OFFSET, BYTE_ORDER);
        final boolean alive = pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        final String device = buffer.getStringWithoutLengthAscii(DEVICE_OFFSET,
            buffer.getInt(DEVICE_LENGTH_OFFSET, BYTE_ORDER));
        return new CountersSnapshot(file, buffer.getInt(NODE_OFFSET, BYTE_ORDER), pid, alive,
            buffer.getLong(START_OFFSET, BYTE_ORDER), device, buffer.getInt(CHANNELS_OFFSET, BYTE_ORDER),
            List.copyOf(counters), List.copyOf(errors));
    }

    private static byte[] copy(final Path file)
    {
        if (Files.isSymbolicLink(file))
        {
            throw new CountersFileException("counters file " + file + " is a symbolic link");
        }
        // opening a FIFO would wait for a writer: only a regular file is opened
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
        {
            throw new CountersFileException("counters file " + file + " is not a regular file (a FIFO, device or " +
                "folder)");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))
        {
            final long size = channel.size();
            if (size > MAX_FILE_LENGTH)
            {
                throw new CountersFileException("counters file " + file + " is " + size + " bytes, more than " +
                    MAX_FILE_LENGTH + " (not a counters file)");
            }
            final ByteBuffer into = ByteBuffer.allocate((int)size);
            while (into.hasRemaining() && channel.read(into) >= 0)
            {
                // until the whole file, or its end if it shrank meanwhile
            }
            final byte[] bytes = new byte[into.position()];
            into.flip().get(bytes);
            return bytes;
        }
        catch (final NoSuchFileException ex)
        {
            throw new CountersFileException("no counters file " + file + " (the node is not running, or runs " +
                "an rfmrt without counters files)");
        }
        catch (final IOException ex)
        {
            throw new CountersFileException("cannot read counters file " + file + ": " + ex.getMessage());
        }
    }

    /**
     * The counters files of every node in a folder, by node id.
     *
     * @param dir the network's folder.
     * @return the files, sorted by node id.
     */
    public static List<Path> files(final Path dir)
    {
        final List<Path> files = new ArrayList<>();
        for (int node = 0; node <= 255; node++)
        {
            final Path file = dir.resolve(NodeCounters.fileName(node));
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS))
            {
                files.add(file);
            }
        }
        return files;
    }
}
