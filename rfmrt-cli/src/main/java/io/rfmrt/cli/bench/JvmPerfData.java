package io.rfmrt.cli.bench;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One reading of another JVM's performance counters: the file HotSpot keeps at {@code /tmp/hsperfdata_USER/PID}
 * (what {@code jstat} reads; on unless the JVM runs with {@code -XX:-UsePerfData}). Nothing runs in the measured
 * process to produce them: the VM itself updates the mapped file, so reading them cannot disturb its RT threads.
 * <pre>
 *   prologue (32 bytes)
 *     0  int   magic 0xcafec0c0, always big-endian
 *     4  byte  byte order of the rest: 0 big-endian, 1 little-endian
 *     5  byte  major version (2)
 *     6  byte  minor version
 *     7  byte  accessible: 0 while the VM is still making the file
 *     8  int   bytes used
 *    24  int   offset of the first entry
 *    28  int   number of entries
 *   entry (each at the previous one's offset + its length)
 *     0  int   entry length
 *     4  int   name offset (from the entry's start), a NUL-terminated ASCII name
 *     8  int   vector length, 0 for a scalar
 *    12  byte  type: 'J' a long, 'B' a byte vector (a NUL-terminated string)
 *    16  int   data offset (from the entry's start)
 * </pre>
 * The file is copied first (the VM keeps writing it; every long is an aligned word, so each value read is one the VM
 * wrote), at most {@link #MAX_BYTES} bytes, and every offset is checked against the copy: a damaged file reads as
 * absent, never as an exception.
 *
 * @param longs   the scalar long counters, by name ({@code sun.gc.collector.0.invocations}).
 * @param strings the string counters, by name ({@code sun.ci.lastMethod}).
 */
record JvmPerfData(Map<String, Long> longs, Map<String, String> strings)
{
    /** Largest file read (HotSpot's default is 32 KiB, {@code -XX:PerfDataMemorySize}). */
    static final int MAX_BYTES = 1 << 20;
    /** The prologue's magic, big-endian. */
    static final int MAGIC = 0xcafec0c0;
    static final int BYTE_ORDER_OFFSET = 4;
    static final int ACCESSIBLE_OFFSET = 7;
    static final int ENTRY_OFFSET_OFFSET = 24;
    static final int ENTRY_COUNT_OFFSET = 28;
    static final int PROLOGUE_LENGTH = 32;
    static final int ENTRY_NAME_OFFSET = 4;
    static final int ENTRY_VECTOR_LENGTH_OFFSET = 8;
    static final int ENTRY_TYPE_OFFSET = 12;
    static final int ENTRY_DATA_OFFSET = 16;
    static final int ENTRY_HEADER_LENGTH = 20;
    /** Where HotSpot keeps the files on Linux (not java.io.tmpdir). */
    static final Path ROOT = Path.of("/tmp");

    /**
     * @param pid a JVM's process id.
     * @return its counters now, or null when it has no readable file (not a HotSpot JVM, perf data off, gone).
     */
    static JvmPerfData of(final long pid)
    {
        final Path file = find(pid);
        if (file == null)
        {
            return null;
        }
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS))
        {
            return parse(in.readNBytes(MAX_BYTES));
        }
        catch (final IOException | SecurityException ex)
        {
            return null;
        }
    }

    private static Path find(final long pid)
    {
        final String name = Long.toString(pid);
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(ROOT, "hsperfdata_*"))
        {
            for (final Path dir : dirs)
            {
                final Path file = dir.resolve(name);
                if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
                {
                    return file;
                }
            }
        }
        catch (final IOException | SecurityException ex)
        {
            return null;
        }
        return null;
    }

    /**
     * @param bytes a copy of a perf data file.
     * @return its counters, or null when the copy is not a complete perf data file.
     */
    static JvmPerfData parse(final byte[] bytes)
    {
        if (bytes.length < PROLOGUE_LENGTH)
        {
            return null;
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        if (buffer.getInt(0, ByteOrder.BIG_ENDIAN) != MAGIC || buffer.getByte(ACCESSIBLE_OFFSET) == 0)
        {
            return null;
        }
        final ByteOrder order = buffer.getByte(BYTE_ORDER_OFFSET) == 0 ? ByteOrder.BIG_ENDIAN :
            ByteOrder.LITTLE_ENDIAN;
        final int count = buffer.getInt(ENTRY_COUNT_OFFSET, order);
        int at = buffer.getInt(ENTRY_OFFSET_OFFSET, order);
        if (count < 0 || at < PROLOGUE_LENGTH)
        {
            return null;
        }
        final Map<String, Long> longs = new HashMap<>();
        final Map<String, String> strings = new HashMap<>();
        for (int i = 0; i < count; i++)
        {
            if (at > bytes.length - ENTRY_HEADER_LENGTH)
            {
                return null;
            }
            final int length = buffer.getInt(at, order);
            final int nameAt = buffer.getInt(at + ENTRY_NAME_OFFSET, order);
            final int vector = buffer.getInt(at + ENTRY_VECTOR_LENGTH_OFFSET, order);
            final byte type = buffer.getByte(at + ENTRY_TYPE_OFFSET);
            final int dataAt = buffer.getInt(at + ENTRY_DATA_OFFSET, order);
            if (length < ENTRY_HEADER_LENGTH || length > bytes.length - at || nameAt < ENTRY_HEADER_LENGTH ||
                nameAt >= length || dataAt < ENTRY_HEADER_LENGTH || dataAt > length || vector < 0)
            {
                return null;
            }
            final String name = cString(bytes, at + nameAt, at + length);
            if (type == 'J' && vector == 0 && dataAt + Long.BYTES <= length)
            {
                longs.put(name, buffer.getLong(at + dataAt, order));
            }
            else if (type == 'B' && vector > 0 && vector <= length - dataAt)
            {
                strings.put(name, cString(bytes, at + dataAt, at + dataAt + vector));
            }
            at += length;
        }
        return new JvmPerfData(Map.copyOf(longs), Map.copyOf(strings));
    }

    private static String cString(final byte[] bytes, final int from, final int limit)
    {
        int end = from;
        while (end < limit && bytes[end] != 0)
        {
            end++;
        }
        return new String(bytes, from, end - from, StandardCharsets.US_ASCII);
    }

    /**
     * @param name a long counter's name.
     * @return its value, 0 when absent.
     */
    long value(final String name)
    {
        return longs.getOrDefault(name, 0L);
    }

    /**
     * @return collections so far, every collector ({@code sun.gc.collector.N.invocations}; all three of G1's are
     * stop-the-world pauses: young, full, and the concurrent cycle's remark and cleanup).
     */
    long gcCount()
    {
        long count = 0;
        for (int n = 0; longs.containsKey("sun.gc.collector." + n + ".invocations"); n++)
        {
            count += value("sun.gc.collector." + n + ".invocations");
        }
        return count;
    }

    /**
     * @return the time in those collections so far, ns.
     */
    long gcNanos()
    {
        long ticks = 0;
        for (int n = 0; longs.containsKey("sun.gc.collector." + n + ".time"); n++)
        {
            ticks += value("sun.gc.collector." + n + ".time");
        }
        return toNanos(ticks);
    }

    /**
     * @return methods compiled by the JIT so far ({@code sun.ci.totalCompiles}).
     */
    long compilations()
    {
        return value("sun.ci.totalCompiles");
    }

    /**
     * @return the last method compiled, as HotSpot names it ({@code java/lang/String hashCode}), or "".
     */
    String lastCompiled()
    {
        return strings.getOrDefault("sun.ci.lastMethod", "");
    }

    /**
     * @return safepoints so far: every one stops every Java thread, the RT ones too.
     */
    long safepoints()
    {
        return value("sun.rt.safepoints");
    }

    /**
     * @return time spent at safepoints so far, ns.
     */
    long safepointNanos()
    {
        return toNanos(value("sun.rt.safepointTime"));
    }

    /**
     * @return heap bytes in use: every space of every generation ({@code sun.gc.generation.G.space.S.used}).
     */
    long heapUsed()
    {
        long used = 0;
        for (int g = 0; longs.containsKey("sun.gc.generation." + g + ".spaces"); g++)
        {
            for (int s = 0; longs.containsKey("sun.gc.generation." + g + ".space." + s + ".used"); s++)
            {
                used += value("sun.gc.generation." + g + ".space." + s + ".used");
            }
        }
        return used;
    }

    private long toNanos(final long ticks)
    {
        final long frequency = value("sun.os.hrt.frequency");
        return frequency <= 0 ? 0 : (long)(ticks * (1e9 / frequency));
    }
}
