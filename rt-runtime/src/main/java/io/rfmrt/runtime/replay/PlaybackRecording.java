package io.rfmrt.runtime.replay;

import io.rfmrt.rfm.channel.ChannelLayout;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.LayoutException;
import io.rfmrt.runtime.journal.JournalHeader;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import io.rfmrt.runtime.journal.internal.JournalRecordDescriptor;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The recorded frames a playback publishes, read once from the journals under a folder into memory: every FRAME
 * record of the chosen sources that passes the time window (cut as the replay summary cuts, {@link NodeAnalysis}),
 * with its sequence number, flags, payload and recorded send stamp, merged across sources in send-stamp order, and for
 * each source the channel that carried it — taken from the journal's own header (record version 3: the node's input
 * channels), so that no configuration is needed.
 * <p>
 * A source received by several journals (a broadcast channel) is taken from the journal with the most of its frames.
 * A journal of record version 2 has no layout and is refused for playback in one line naming its file.
 * <p>
 * Immutable once loaded; the arrays are read by the player thread without allocation.
 */
public final class PlaybackRecording
{
    /** Most frames a recording may hold in memory: cut a longer one with a time window. */
    public static final int MAX_FRAMES = 1 << 26;
    /** Most payload bytes a recording may hold in memory. */
    public static final long MAX_PAYLOAD_BYTES = 1L << 30;

    /**
     * One played source: a node whose frames the recording holds, and the channel they travel on.
     *
     * @param node    the recorded publisher's node id (the FRAME records' source).
     * @param channel the channel, as the recording journal's layout has it.
     * @param journal the journal the frames come from (its name under the folder).
     * @param frames  frames of this source in the recording.
     */
    public record Source(int node, ChannelSpec channel, String journal, long frames)
    {
    }

    private final Path dir;
    private final List<Source> sources;
    private final int count;
    private final long[] sendNanos;
    private final long[] seq;
    private final int[] flags;
    private final int[] sourceIndex;
    private final long[] payloadAt;
    private final int[] payloadLength;
    private final UnsafeBuffer payloads;

    private PlaybackRecording(final Path dir, final List<Source> sources, final Frames frames)
    {
        this.dir = dir;
        this.sources = sources;
        this.count = frames.count;
        final int[] order = frames.order();
        this.sendNanos = new long[count];
        this.seq = new long[count];
        this.flags = new int[count];
        this.sourceIndex = new int[count];
        this.payloadAt = new long[count];
        this.payloadLength = new int[count];
        for (int i = 0; i < count; i++)
        {
            final int j = order[i];
            sendNanos[i] = frames.sendNanos[j];
            seq[i] = frames.seq[j];
            flags[i] = frames.flags[j];
            sourceIndex[i] = frames.source[j];
            payloadAt[i] = frames.payloadAt[j];
            payloadLength[i] = frames.payloadLength[j];
        }
        this.payloads = new UnsafeBuffer(Arrays.copyOf(frames.payloads, (int)frames.payloadBytes));
    }

    /**
     * Read the frames to play.
     *
     * @param dir     a journal folder, or a folder with journals below it (as {@code rfmrt replay} takes).
     * @param from    earliest frame (its recorded send stamp), or {@code null}.
     * @param to      latest frame, or {@code null}.
     * @param wanted  the sources to play, by node id; empty for every source found.
     * @return the recording.
     * @throws ReplayException one line: no journal, a journal of version 2 (no layout), a layout that cannot be used,
     *                         a source not found, no frame in the window, more than fits in memory.
     */
    public static PlaybackRecording load(final Path dir, final TimeBound from, final TimeBound to,
        final Set<Integer> wanted)
    {
        final List<JournalSet.Entry> entries = JournalSet.locate(dir);
        final ReplayFilter filter = new ReplayFilter(from, to, ReplayFilter.ALL_SOURCES);
        // first pass: which journal holds most frames of each source, and its channel
        final Map<Integer, Candidate> best = new LinkedHashMap<>();
        final Map<String, String> refused = new LinkedHashMap<>();
        final Set<Integer> found = new TreeSet<>();
        final JournalRecord record = new JournalRecord();
        for (final JournalSet.Entry entry : entries)
        {
            try (JournalReader reader = Replay.open(entry))
            {
                final Map<Integer, long[]> counts = new LinkedHashMap<>();
                final NodeAnalysis node = new NodeAnalysis(entry, filter, reader.header(), 1);
                while (reader.next(record))
                {
                    // every record goes through the filter, as in the summary (the first one may set the start)
                    if (node.accept(record) && record.kind() == RecordKind.FRAME)
                    {
                        found.add(record.source());
                        if (wanted.isEmpty() || wanted.contains(record.source()))
                        {
                            counts.computeIfAbsent(record.source(), k -> new long[1])[0]++;
                        }
                    }
                }
                if (counts.isEmpty())
                {
                    continue;
                }
                final String why = layoutProblem(reader);
                final ChannelLayout layout = why == null ? parse(entry, reader.header()) : null;
                for (final Map.Entry<Integer, long[]> c : counts.entrySet())
                {
                    final Candidate old = best.get(c.getKey());
                    if (old == null || c.getValue()[0] > old.frames)
                    {
                        best.put(c.getKey(), new Candidate(entry, layout, c.getValue()[0]));
                        if (why != null)
                        {
                            refused.put(entry.name(), why);
                        }
                    }
                }
            }
            catch (final ReplayException ex)
            {
                refused.put(entry.name(), ex.getMessage());
            }
        }
        for (final int node : wanted)
        {
            if (!best.containsKey(node))
            {
                throw new ReplayException("playback: no journal under " + dir + " holds frames from node " + node +
                    window(from, to) + (found.isEmpty() ? "" : "; sources found: " + found));
            }
        }
        if (best.isEmpty())
        {
            throw new ReplayException(refused.isEmpty() ? "playback: no FRAME records under " + dir + window(from, to) :
                refused.values().iterator().next());
        }
        final List<Source> sources = new ArrayList<>();
        final Map<Integer, Integer> index = new LinkedHashMap<>();
        for (final Map.Entry<Integer, Candidate> e : new TreeMap<>(best).entrySet())
        {
            final Candidate c = e.getValue();
            if (c.layout == null)
            {
                throw new ReplayException(refused.get(c.entry.name()));
            }
            final ChannelSpec channel = channelOf(c.entry, c.layout, e.getKey());
            index.put(e.getKey(), sources.size());
            sources.add(new Source(e.getKey(), channel, c.entry.name(), c.frames));
        }
        final long total = sources.stream().mapToLong(Source::frames).sum();
        if (total > MAX_FRAMES)
        {
            throw new ReplayException("playback: " + total + " frames under " + dir + window(from, to) + " are more " +
                "than " + MAX_FRAMES + " held in memory; play a part of it with --from and --to");
        }
        // second pass: the frames themselves, from the journal chosen for each source
        final Frames frames = new Frames((int)total);
        final Set<String> read = new TreeSet<>();
        for (final Source s : sources)
        {
            read.add(s.journal());
        }
        for (final JournalSet.Entry entry : entries)
        {
            if (!read.contains(entry.name()))
            {
                continue;
            }
            try (JournalReader reader = Replay.open(entry))
            {
                final NodeAnalysis node = new NodeAnalysis(entry, filter, reader.header(), 1);
                while (reader.next(record))
                {
                    if (!node.accept(record) || record.kind() != RecordKind.FRAME)
                    {
                        continue;
                    }
                    final Integer i = index.get(record.source());
                    if (i == null || !sources.get(i).journal().equals(entry.name()))
                    {
                        continue;
                    }
                    final ChannelSpec channel = sources.get(i).channel();
                    if (record.payloadLength() > channel.maxPayload())
                    {
                        throw new ReplayException("playback: journal " + entry.dir() + " holds a frame of " +
                            record.payloadLength() + " payload bytes (seq " + record.seq() + " from node " +
                            record.source() + "), more than its channel '" + channel.name() + "' takes (" +
                            channel.maxPayload() + ")");
                    }
                    frames.add(i, record, dir);
                }
            }
        }
        return new PlaybackRecording(dir, List.copyOf(sources), frames);
    }

    /**
     * @param entry  a journal.
     * @param header its first header.
     * @return the layout it recorded.
     */
    private static ChannelLayout parse(final JournalSet.Entry entry, final JournalHeader header)
    {
        try
        {
            return ChannelLayout.parse("journal " + entry.dir() + " layout", header.layout());
        }
        catch (final LayoutException ex)
        {
            throw new ReplayException("playback: journal " + entry.dir() + " records a channel layout that cannot " +
                "be used: " + ex.getMessage().replace('\n', ' '));
        }
    }

    /**
     * @return why the journal cannot be played (one line naming its file), or {@code null}.
     */
    private static String layoutProblem(final JournalReader reader)
    {
        final JournalHeader header = reader.header();
        if (header == null)
        {
            return "playback: journal " + reader.file() + " has no readable journal header, so no channel layout";
        }
        if (header.version() == JournalRecordDescriptor.VERSION_WITHOUT_LAYOUT)
        {
            return "playback: journal file " + firstFile(reader) + " has record version " + header.version() +
                ", which does not record the node's channel layout; playback needs version " +
                JournalRecordDescriptor.VERSION + " (record it again with this rfmrt)";
        }
        if (header.layout() == null)
        {
            return "playback: journal file " + firstFile(reader) + " records no channel layout (its node gave the " +
                "journal none); playback needs the channels its frames travelled on";
        }
        return null;
    }

    private static Path firstFile(final JournalReader reader)
    {
        final Path file = reader.file();
        if (file == null)
        {
            return null;
        }
        try (Stream<Path> files = Files.list(file.getParent()))
        {
            return files.filter(f -> f.getFileName().toString().endsWith(".cq4")).sorted().findFirst().orElse(file);
        }
        catch (final IOException | UncheckedIOException ex)
        {
            return file;
        }
    }

    private static ChannelSpec channelOf(final JournalSet.Entry entry, final ChannelLayout layout, final int node)
    {
        ChannelSpec found = null;
        for (final ChannelSpec c : layout.channels())
        {
            if (c.node() == node)
            {
                if (found != null)
                {
                    throw new ReplayException("playback: journal " + entry.dir() + " records two channels published " +
                        "by node " + node + " ('" + found.name() + "', '" + c.name() + "'); its frames do not say " +
                        "which carried them");
                }
                found = c;
            }
        }
        if (found == null)
        {
            throw new ReplayException("playback: journal " + entry.dir() + " holds frames from node " + node +
                ", but its recorded channel layout has no channel published by node " + node);
        }
        return found;
    }

    private static String window(final TimeBound from, final TimeBound to)
    {
        return from == null && to == null ? "" : " between " + (from == null ? "the start" : from.text()) + " and " +
            (to == null ? "the end" : to.text());
    }

    /**
     * @return the folder the recording was read from.
     */
    public Path dir()
    {
        return dir;
    }

    /**
     * @return the sources, by node id.
     */
    public List<Source> sources()
    {
        return sources;
    }

    /**
     * @return frames, all sources.
     */
    public int frames()
    {
        return count;
    }

    /**
     * @param i a frame, 0 to {@link #frames()} - 1, in send-stamp order.
     * @return its recorded send stamp, the publisher's {@code System.nanoTime()}.
     */
    public long sendNanos(final int i)
    {
        return sendNanos[i];
    }

    /**
     * @param i a frame.
     * @return its recorded sequence number.
     */
    public long seq(final int i)
    {
        return seq[i];
    }

    /**
     * @param i a frame.
     * @return its recorded flags.
     */
    public int flags(final int i)
    {
        return flags[i];
    }

    /**
     * @param i a frame.
     * @return its source's position in {@link #sources()}.
     */
    public int sourceIndex(final int i)
    {
        return sourceIndex[i];
    }

    /**
     * @return every payload, one after the other; frame {@code i}'s at {@link #payloadOffset(int)}.
     */
    public DirectBuffer payloads()
    {
        return payloads;
    }

    /**
     * @param i a frame.
     * @return where its payload starts in {@link #payloads()}.
     */
    public int payloadOffset(final int i)
    {
        return (int)payloadAt[i];
    }

    /**
     * @param i a frame.
     * @return its payload bytes.
     */
    public int payloadLength(final int i)
    {
        return payloadLength[i];
    }

    /**
     * @return recorded time from the first frame to the last, ns (0 for one frame).
     */
    public long spanNanos()
    {
        return count == 0 ? 0 : sendNanos[count - 1] - sendNanos[0];
    }

    /**
     * @return the recorded time one loop takes: the span plus one mean inter-frame time, so that the first frame of
     *         the next loop follows the last as the frames followed each other (1 ms for a single frame).
     */
    public long loopNanos()
    {
        return count < 2 ? 1_000_000L : spanNanos() + Math.max(1, spanNanos() / (count - 1));
    }

    @Override
    public String toString()
    {
        return "PlaybackRecording{" + dir + ", " + count + " frames, sources " + sources + '}';
    }

    private record Candidate(JournalSet.Entry entry, ChannelLayout layout, long frames)
    {
        Candidate
        {
            Objects.requireNonNull(entry);
        }
    }

    /** Growing columns of frames, in the order read. */
    private static final class Frames
    {
        final long[] sendNanos;
        final long[] seq;
        final int[] flags;
        final int[] source;
        final long[] payloadAt;
        final int[] payloadLength;
        byte[] payloads = new byte[4096];
        long payloadBytes;
        int count;

        Frames(final int capacity)
        {
            sendNanos = new long[capacity];
            seq = new long[capacity];
            flags = new int[capacity];
            source = new int[capacity];
            payloadAt = new long[capacity];
            payloadLength = new int[capacity];
        }

        void add(final int sourceIndex, final JournalRecord record, final Path dir)
        {
            if (count == sendNanos.length)
            {
                // the journal grew between the two passes (being written): what the first pass counted is played
                return;
            }
            final int length = record.payloadLength();
            if (payloadBytes + length > MAX_PAYLOAD_BYTES)
            {
                throw new ReplayException("playback: the frames under " + dir + " hold more than " + MAX_PAYLOAD_BYTES +
                    " payload bytes; play a part of it with --from and --to");
            }
            if (payloadBytes + length > payloads.length)
            {
                payloads = Arrays.copyOf(payloads, (int)Math.min(MAX_PAYLOAD_BYTES,
                    Math.max(payloads.length * 2L, payloadBytes + length)));
            }
            record.payload().getBytes(record.payloadOffset(), payloads, (int)payloadBytes, length);
            sendNanos[count] = record.sendNanos();
            seq[count] = record.seq();
            flags[count] = record.flags();
            source[count] = sourceIndex;
            payloadAt[count] = payloadBytes;
            payloadLength[count] = length;
            payloadBytes += length;
            count++;
        }

        /** @return frame positions in send-stamp order, stable (journal order among equal stamps). */
        int[] order()
        {
            final int[] order = new int[count];
            boolean sorted = true;
            for (int i = 0; i < count; i++)
            {
                order[i] = i;
                sorted &= i == 0 || sendNanos[i] - sendNanos[i - 1] >= 0;
            }
            if (!sorted)
            {
                mergeSort(order, new int[count], 0, count);
            }
            return order;
        }

        private void mergeSort(final int[] a, final int[] scratch, final int from, final int to)
        {
            if (to - from < 2)
            {
                return;
            }
            final int mid = (from + to) >>> 1;
            mergeSort(a, scratch, from, mid);
            mergeSort(a, scratch, mid, to);
            int i = from;
            int j = mid;
            int k = from;
            while (i < mid && j < to)
            {
                scratch[k++] = sendNanos[a[j]] - sendNanos[a[i]] < 0 ? a[j++] : a[i++];
            }
            while (i < mid)
            {
                scratch[k++] = a[i++];
            }
            while (j < to)
            {
                scratch[k++] = a[j++];
            }
            System.arraycopy(scratch, from, a, from, to - from);
        }
    }

    /**
     * @return the sources' node ids.
     */
    public List<Integer> sourceNodes()
    {
        final List<Integer> nodes = new ArrayList<>();
        sources.forEach(s -> nodes.add(s.node()));
        return Collections.unmodifiableList(nodes);
    }
}
