package io.rfmrt.runtime.journal;

import io.rfmrt.runtime.journal.internal.ChronicleSupport;
import io.rfmrt.runtime.journal.internal.JournalRecordDescriptor;
import org.agrona.BitUtil;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Settings of one {@link Journal}. Immutable; {@link #validate()} checks every field and names the bad one.
 *
 * @param dir               folder of the Chronicle Queue; created (0770) when missing.
 * @param nodeId            RFM node id of this node, written into every record; 0-65535.
 * @param ringCapacityBytes bytes of each writer's SPSC ring, a power of two from {@link #RING_CAPACITY_BYTES_MIN}
 *                          to {@link #RING_CAPACITY_BYTES_MAX}; a record may take at most 1/8 of it.
 * @param rollCycle         Chronicle roll cycle name: {@code HOURLY} (default), {@code MINUTELY}, {@code DAILY},
 *                          {@code FAST_HOURLY}, {@code FAST_DAILY}, {@code LARGE_HOURLY}, ... any case.
 * @param cpu               cpu the journal thread should run on (a housekeeping core; the thread factory given to
 *                          {@link Journal#start(JournalConfig, java.util.concurrent.ThreadFactory)} places it, the
 *                          journal checks it), or {@link #CPU_UNPINNED}.
 * @param layout            the node's channels as {@code ChannelLayout} YAML, written into every journal header so
 *                          that the recording can be played back without its configuration; {@code null} for none.
 *                          At most {@link #LAYOUT_BYTES_MAX} bytes of UTF-8.
 */
public record JournalConfig(Path dir, int nodeId, int ringCapacityBytes, String rollCycle, int cpu, String layout)
{
    /** Default of {@link #ringCapacityBytes()}: 1 MiB per writer. */
    public static final int RING_CAPACITY_BYTES_DEFAULT = 1 << 20;
    /** Smallest {@link #ringCapacityBytes()}. */
    public static final int RING_CAPACITY_BYTES_MIN = 4096;
    /** Largest {@link #ringCapacityBytes()}. */
    public static final int RING_CAPACITY_BYTES_MAX = 1 << 30;
    /** Default of {@link #rollCycle()}: a new file every hour. */
    public static final String ROLL_CYCLE_DEFAULT = "HOURLY";
    /** {@link #cpu()} that leaves the journal thread where the scheduler puts it. */
    public static final int CPU_UNPINNED = -1;
    /** Largest {@link #nodeId()}. */
    public static final int NODE_ID_MAX = 0xFFFF;
    /** Longest {@link #layout()}, bytes of UTF-8. */
    public static final int LAYOUT_BYTES_MAX = JournalRecordDescriptor.MAX_LAYOUT_LENGTH;

    /**
     * A config without a layout.
     *
     * @param dir               folder of the Chronicle Queue.
     * @param nodeId            RFM node id.
     * @param ringCapacityBytes bytes of each writer's ring.
     * @param rollCycle         Chronicle roll cycle name.
     * @param cpu               cpu of the journal thread, or {@link #CPU_UNPINNED}.
     */
    public JournalConfig(final Path dir, final int nodeId, final int ringCapacityBytes, final String rollCycle,
        final int cpu)
    {
        this(dir, nodeId, ringCapacityBytes, rollCycle, cpu, null);
    }

    /**
     * @param dir    folder of the journal.
     * @param nodeId RFM node id.
     * @return a config with {@link #RING_CAPACITY_BYTES_DEFAULT}, {@link #ROLL_CYCLE_DEFAULT}, not pinned.
     */
    public static JournalConfig of(final Path dir, final int nodeId)
    {
        return new JournalConfig(dir, nodeId, RING_CAPACITY_BYTES_DEFAULT, ROLL_CYCLE_DEFAULT, CPU_UNPINNED);
    }

    /**
     * @param bytes ring bytes per writer.
     * @return a copy with that ring capacity.
     */
    public JournalConfig withRingCapacityBytes(final int bytes)
    {
        return new JournalConfig(dir, nodeId, bytes, rollCycle, cpu, layout);
    }

    /**
     * @param name roll cycle name.
     * @return a copy with that roll cycle.
     */
    public JournalConfig withRollCycle(final String name)
    {
        return new JournalConfig(dir, nodeId, ringCapacityBytes, name, cpu, layout);
    }

    /**
     * @param cpu journal thread cpu, or {@link #CPU_UNPINNED}.
     * @return a copy with that cpu.
     */
    public JournalConfig withCpu(final int cpu)
    {
        return new JournalConfig(dir, nodeId, ringCapacityBytes, rollCycle, cpu, layout);
    }

    /**
     * @param yaml the node's channels as {@code ChannelLayout} YAML, or {@code null}.
     * @return a copy with that layout.
     */
    public JournalConfig withLayout(final String yaml)
    {
        return new JournalConfig(dir, nodeId, ringCapacityBytes, rollCycle, cpu, yaml);
    }

    /**
     * @return {@link #layout()} as UTF-8, empty when there is none.
     */
    public byte[] layoutBytes()
    {
        return layout == null ? new byte[0] : layout.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @return this, when every field is valid.
     * @throws IllegalArgumentException naming the first bad field and its value.
     */
    public JournalConfig validate()
    {
        if (dir == null)
        {
            throw new IllegalArgumentException("journal dir must be set (was null)");
        }
        if (nodeId < 0 || nodeId > NODE_ID_MAX)
        {
            throw new IllegalArgumentException("journal nodeId " + nodeId + " is not in 0-" + NODE_ID_MAX);
        }
        if (ringCapacityBytes < RING_CAPACITY_BYTES_MIN || ringCapacityBytes > RING_CAPACITY_BYTES_MAX ||
            !BitUtil.isPowerOfTwo(ringCapacityBytes))
        {
            throw new IllegalArgumentException("journal ringCapacityBytes " + ringCapacityBytes +
                " is not a power of two from " + RING_CAPACITY_BYTES_MIN + " to " + RING_CAPACITY_BYTES_MAX);
        }
        if (ChronicleSupport.rollCycle(rollCycle) == null)
        {
            throw new IllegalArgumentException("journal rollCycle " + rollCycle + " is not one of " +
                ChronicleSupport.rollCycleNames());
        }
        if (cpu < CPU_UNPINNED)
        {
            throw new IllegalArgumentException("journal cpu " + cpu + " is not a cpu number (or -1 for unpinned)");
        }
        if (layoutBytes().length > LAYOUT_BYTES_MAX)
        {
            throw new IllegalArgumentException("journal layout is " + layoutBytes().length + " bytes, more than " +
                LAYOUT_BYTES_MAX);
        }
        return this;
    }
}
