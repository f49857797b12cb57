package io.rfmrt.runtime.counters;

import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SharedMemoryFile;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.runtime.RuntimeCounter;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static io.rfmrt.runtime.counters.CountersFileDescriptor.*;

/**
 * A node's counters, in a file other processes read ({@code rfmrt stat}), as Aeron's driver keeps its counters in
 * its CnC file: an Agrona {@link CountersManager} over the file's metadata and values buffers, every counter at the
 * id {@link CounterIds} fixes for it, and a {@link DistinctErrorLog} for the node's thread failures.
 * <p>
 * The file is {@code node-N.counters} in the network's folder ({@link #fileFor}), mode 0660. It is made when the
 * node has claimed its id and removed on {@link #close()}; a node that crashed leaves it for post-mortem, and the
 * next node of that id replaces it.
 * <p>
 * Threading: counters are {@link AtomicCounter}s; the node's hot-path threads add to them without locks or
 * allocation. Allocation ({@link #create}) and {@link #close()} on one thread.
 */
public final class NodeCounters implements AutoCloseable
{
    /** Suffix of a counters file. */
    public static final String FILE_SUFFIX = ".counters";

    private final Path file;
    private final Object fileKey;
    private final long length;
    private final SharedMemoryFile mapping;
    private final CountersManager manager;
    private final DistinctErrorLog errorLog;
    private final AtomicCounter[] byId;
    private final int channels;
    private boolean closed;

    private NodeCounters(final Path file, final SharedMemoryFile mapping, final AtomicBuffer whole, final int node,
        final String device, final List<ChannelSpec> inputs)
    {
        this.file = file;
        this.fileKey = file == null ? null : SharedMemoryFile.fileKey(file);
        this.length = whole.capacity();
        this.mapping = mapping;
        this.channels = inputs.size();
        final int count = CounterIds.capacity(channels);
        final int metadata = count * CountersReader.METADATA_LENGTH;
        final int values = count * CountersReader.COUNTER_LENGTH;
        final UnsafeBuffer metadataBuffer = new UnsafeBuffer(whole, HEADER_LENGTH, metadata);
        final UnsafeBuffer valuesBuffer = new UnsafeBuffer(whole, HEADER_LENGTH + metadata, values);
        final UnsafeBuffer errorBuffer = new UnsafeBuffer(whole, HEADER_LENGTH + metadata + values, ERROR_LOG_LENGTH);
        this.manager = new CountersManager(metadataBuffer, valuesBuffer, StandardCharsets.US_ASCII);
        this.errorLog = new DistinctErrorLog(errorBuffer, SystemEpochClock.INSTANCE, StandardCharsets.UTF_8);
        this.byId = new AtomicCounter[count];
        for (int id = 0; id < count; id++)
        {
            final int allocated = allocate(id, inputs);
            if (allocated != id)
            {
                throw new IllegalStateException("counter " + id + " was allocated as " + allocated);
            }
            byId[id] = new AtomicCounter(valuesBuffer, id, manager);
        }
        whole.putLong(MAGIC_OFFSET, MAGIC, BYTE_ORDER);
        whole.putInt(NODE_OFFSET, node, BYTE_ORDER);
        whole.putLong(PID_OFFSET, ProcessHandle.current().pid(), BYTE_ORDER);
        whole.putLong(START_OFFSET, System.currentTimeMillis(), BYTE_ORDER);
        whole.putInt(METADATA_LENGTH_OFFSET, metadata, BYTE_ORDER);
        whole.putInt(VALUES_LENGTH_OFFSET, values, BYTE_ORDER);
        whole.putInt(ERROR_LOG_LENGTH_OFFSET, ERROR_LOG_LENGTH, BYTE_ORDER);
        whole.putInt(CHANNELS_OFFSET, channels, BYTE_ORDER);
        final byte[] uri = device.getBytes(StandardCharsets.US_ASCII);
        final int uriLength = Math.min(uri.length, MAX_DEVICE_LENGTH);
        whole.putInt(DEVICE_LENGTH_OFFSET, uriLength, BYTE_ORDER);
        whole.putBytes(DEVICE_OFFSET, uri, 0, uriLength);
        // readers refuse the file until this store: everything before it is visible first
        whole.putIntRelease(VERSION_OFFSET, VERSION);
    }

    private int allocate(final int id, final List<ChannelSpec> inputs)
    {
        if (id < CounterIds.CARD_BASE)
        {
            final RuntimeCounter[] all = RuntimeCounter.values();
            for (final RuntimeCounter c : all)
            {
                if (CounterIds.runtime(c) == id)
                {
                    return manager.allocate(c.label(), CounterIds.TYPE_RUNTIME, key -> key.putInt(0, c.id()));
                }
            }
            return reserved();
        }
        if (id < CounterIds.JOURNAL_BASE)
        {
            final int index = id - CounterIds.CARD_BASE;
            if (index < CounterIds.CARD_ORDER.length)
            {
                final RfmCounter c = CounterIds.CARD_ORDER[index];
                return manager.allocate("card: " + c.label(), CounterIds.TYPE_CARD, key -> key.putInt(0, c.id()));
            }
            return reserved();
        }
        if (id < CounterIds.APP_BASE)
        {
            final int index = id - CounterIds.JOURNAL_BASE;
            if (index < CounterIds.JOURNAL_LABELS.length)
            {
                return manager.allocate(CounterIds.JOURNAL_LABELS[index], CounterIds.TYPE_JOURNAL,
                    key -> key.putInt(0, index));
            }
            return reserved();
        }
        if (id < CounterIds.FRAME_BASE)
        {
            final AppCounter c = AppCounter.ofId(id - CounterIds.APP_BASE);
            return c == null ? reserved() :
                manager.allocate(c.label(), CounterIds.TYPE_APP, key -> key.putInt(0, c.id()));
        }
        final int channel = (id - CounterIds.FRAME_BASE) / CounterIds.FRAME_STRIDE;
        final int index = (id - CounterIds.FRAME_BASE) % CounterIds.FRAME_STRIDE;
        if (index < FrameCounter.COUNT)
        {
            final FrameCounter c = FrameCounter.values()[index];
            final ChannelSpec spec = inputs.get(channel);
            return manager.allocate(spec.name() + " (node " + spec.node() + "): " + frameLabel(c),
                CounterIds.TYPE_FRAME, key ->
                {
                    key.putInt(0, c.id());
                    key.putInt(4, channel);
                    key.putInt(8, spec.node());
                });
        }
        return reserved();
    }

    private int reserved()
    {
        return manager.allocate("reserved", CounterIds.TYPE_RESERVED);
    }

    /**
     * @param counter a frame counter.
     * @return its label, as the heartbeat line names it.
     */
    public static String frameLabel(final FrameCounter counter)
    {
        return counter.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Make the counters file of a node that has claimed its id, replacing one a crashed node left.
     *
     * @param file   where, usually {@link #fileFor}.
     * @param node   the node id.
     * @param device the device URI (shown by readers).
     * @param inputs the input channels, in the node's order.
     * @return the counters.
     * @throws RfmException naming the file when it cannot be made.
     */
    public static NodeCounters create(final Path file, final int node, final String device,
        final List<ChannelSpec> inputs)
    {
        if (inputs.size() > CounterIds.MAX_CHANNELS)
        {
            throw new IllegalArgumentException(inputs.size() + " input channels: counters hold at most " +
                CounterIds.MAX_CHANNELS);
        }
        try
        {
            // the node id is ours (claimed), so a file of that id is a dead node's
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot replace the counters file " + file +
                ": " + ex.getMessage(), ex);
        }
        final SharedMemoryFile mapping = SharedMemoryFile.create(file,
            fileLength(CounterIds.capacity(inputs.size())), "counters of node " + node);
        try
        {
            return new NodeCounters(file, mapping, mapping.buffer(), node, device, inputs);
        }
        catch (final RuntimeException ex)
        {
            mapping.close();
            deleteQuietly(file);
            throw ex;
        }
    }

    /**
     * Counters in this process only (no file), e.g. for a receive path that is not a node's.
     *
     * @param inputs the input channels.
     * @return the counters.
     */
    public static NodeCounters inMemory(final List<ChannelSpec> inputs)
    {
        final UnsafeBuffer whole = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            (int)fileLength(CounterIds.capacity(inputs.size())), 128));
        return new NodeCounters(null, null, whole, 0, "", inputs);
    }

    /**
     * Where the counters of the node on {@code device} live: in the folder for files kept beside the device
     * ({@link RfmDevices#folder}: the emulated network's folder for {@code sim:NETWORK?...}, and for a card,
     * {@code rfm2g:/dev/rfm2g0}, a folder named after its device node, {@code rfm2g0}, beside the networks), which is
     * made when missing.
     *
     * @param device a device URI.
     * @param node   the node id.
     * @return the file.
     */
    public static Path fileFor(final String device, final int node)
    {
        return RfmDevices.folder(device, true).resolve(fileName(node));
    }

    /**
     * @param node a node id.
     * @return its counters file's name, {@code node-N.counters}.
     */
    public static String fileName(final int node)
    {
        return "node-" + node + FILE_SUFFIX;
    }

    /**
     * @param counter a runtime counter.
     * @return it.
     */
    public AtomicCounter runtime(final RuntimeCounter counter)
    {
        return byId[CounterIds.runtime(counter)];
    }

    /**
     * @param counter a card counter.
     * @return it.
     */
    public AtomicCounter card(final RfmCounter counter)
    {
        return byId[CounterIds.card(counter)];
    }

    /**
     * @param journalCounter one of {@link CounterIds}' journal counters.
     * @return it.
     */
    public AtomicCounter journal(final int journalCounter)
    {
        return byId[CounterIds.journal(journalCounter)];
    }

    /**
     * @param counter an app figure.
     * @return it: set by the app, off its RT threads.
     */
    public AtomicCounter app(final AppCounter counter)
    {
        return byId[CounterIds.app(counter)];
    }

    /**
     * @param channel an input channel's index.
     * @return its frame counters, indexed by {@link FrameCounter#id()} (a new array: take it once).
     */
    public AtomicCounter[] frames(final int channel)
    {
        if (channel < 0 || channel >= channels)
        {
            throw new IndexOutOfBoundsException("input channel " + channel + " of " + channels);
        }
        final AtomicCounter[] counters = new AtomicCounter[FrameCounter.COUNT];
        for (final FrameCounter c : FrameCounter.values())
        {
            counters[c.id()] = byId[CounterIds.frame(channel, c)];
        }
        return counters;
    }

    /**
     * @return the input channels counted.
     */
    public int channels()
    {
        return channels;
    }

    /**
     * @return the node's distinct errors.
     */
    public DistinctErrorLog errorLog()
    {
        return errorLog;
    }

    /**
     * @return the counters, for reading.
     */
    public CountersReader reader()
    {
        return manager;
    }

    /**
     * @return the file, null for counters in memory.
     */
    public Path file()
    {
        return file;
    }

    /**
     * Whether the file was cut short under this node (truncated in place by something outside rfmrt). An update of a
     * counter on a page past the file's end faults, and an atomic one from interpreted code crashes the JVM, so the
     * error path checks this before it counts or records an error here. A file replaced or removed is not cut short:
     * the mapping keeps the old file's pages. Off the hot path (one file-status read).
     *
     * @return null when the file still covers its mapping (or the counters are in memory), else one line naming the
     * file and its sizes.
     */
    public String truncation()
    {
        if (file == null)
        {
            return null;
        }
        final long size = SharedMemoryFile.cutSize(file, fileKey, length);
        return size < 0 ? null : "the counters file " + file + " was cut to " + size + " of its " + length +
            " bytes under this node";
    }

    /**
     * Unmap and remove the file (an orderly stop: nothing is left to look at). Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (mapping != null)
        {
            mapping.close();
            deleteQuietly(file);
        }
    }

    private static void deleteQuietly(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ignored)
        {
            // left behind; the next node of this id replaces it
        }
    }
}
