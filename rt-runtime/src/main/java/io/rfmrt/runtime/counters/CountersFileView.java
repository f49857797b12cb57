package io.rfmrt.runtime.counters;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A live, read-only view of another node's counters file, for a process that follows one counter as it moves (a
 * playback waiting for its receiver): the file is checked once as {@link CountersSnapshot#read} checks it, then
 * mapped, and {@link #value(int)} reads a counter's current value from the mapping with a volatile load, allocating
 * nothing. The mapping stays valid when the node removes its file on stop (the values then stop moving).
 * <p>
 * Threading: {@link #value} from any thread; {@link #close} once nobody reads.
 */
public final class CountersFileView implements AutoCloseable
{
    private final Path file;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final int valuesOffset;
    private final int counters;
    private final int node;
    private boolean closed;

    private CountersFileView(final Path file, final MappedByteBuffer mapped, final int node)
    {
        this.file = file;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        this.valuesOffset = CountersFileDescriptor.valuesOffset(buffer);
        this.counters = buffer.getInt(CountersFileDescriptor.VALUES_LENGTH_OFFSET, CountersFileDescriptor.BYTE_ORDER) /
            CountersReader.COUNTER_LENGTH;
        this.node = node;
    }

    /**
     * @param file a node's counters file ({@link NodeCounters#fileFor}).
     * @return the view.
     * @throws CountersFileException one line naming the file: missing, damaged, of another version, or not mappable.
     */
    public static CountersFileView open(final Path file)
    {
        final CountersSnapshot snapshot = CountersSnapshot.read(file);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))
        {
            final long size = channel.size();
            if (size != CountersFileDescriptor.HEADER_LENGTH + (long)snapshotLength(file, channel))
            {
                throw new CountersFileException("counters file " + file + " changed while it was opened");
            }
            return new CountersFileView(file, channel.map(FileChannel.MapMode.READ_ONLY, 0, size), snapshot.node());
        }
        catch (final IOException ex)
        {
            throw new CountersFileException("cannot map counters file " + file + ": " + ex.getMessage());
        }
    }

    private static int snapshotLength(final Path file, final FileChannel channel) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(CountersFileDescriptor.HEADER_LENGTH)
            .order(CountersFileDescriptor.BYTE_ORDER);
        channel.read(header, 0);
        final long body = (long)header.getInt(CountersFileDescriptor.METADATA_LENGTH_OFFSET) +
            header.getInt(CountersFileDescriptor.VALUES_LENGTH_OFFSET) +
            header.getInt(CountersFileDescriptor.ERROR_LOG_LENGTH_OFFSET);
        if (body < 0 || body > CountersFileDescriptor.MAX_FILE_LENGTH)
        {
            throw new CountersFileException("counters file " + file + " changed while it was opened");
        }
        return (int)body;
    }

    /**
     * @param id a counter id ({@link CounterIds}, e.g. a {@code RuntimeCounter}'s id).
     * @return its current value, or -1 when the file has no such counter.
     */
    public long value(final int id)
    {
        if (id < 0 || id >= counters)
        {
            return -1;
        }
        return buffer.getLongVolatile(valuesOffset + id * CountersReader.COUNTER_LENGTH);
    }

    /**
     * @return the node whose file it is.
     */
    public int node()
    {
        return node;
    }

    /**
     * @return the file.
     */
    public Path file()
    {
        return file;
    }

    /**
     * Unmap. Idempotent.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            IoUtil.unmap(mapped);
        }
    }
}
