package io.rfmrt.runtime.counters;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.status.CountersReader;

import java.nio.ByteOrder;

/**
 * Layout of a node's counters file, {@code node-N.counters}: a header, then Agrona's counters metadata and values
 * buffers ({@link org.agrona.concurrent.status.CountersManager}), then a {@link DistinctErrorLog}. Little-endian,
 * every part 128-byte aligned.
 * <pre>
 *   0  long  magic "rfmrtCNT"
 *   8  int   version, written last: 0 while the node is still filling the file
 *  12  int   node id
 *  16  long  pid of the node's process
 *  24  long  start time, ms since the epoch
 *  32  int   metadata length (counters × 512)
 *  36  int   values length (counters × 128)
 *  40  int   error log length
 *  44  int   input channels
 *  48  int   device URI length (≤ 76), then its ASCII bytes
 * 128        metadata, values, error log
 * </pre>
 * {@link #validate} checks everything a reader uses, so that a damaged or hostile file is refused with one line.
 */
public final class CountersFileDescriptor
{
    /** "rfmrtCNT" as a little-endian long. */
    public static final long MAGIC = 0x544E4374_726D6672L;
    /** The one version this build writes and reads. */
    public static final int VERSION = 1;
    /** Offset of the magic. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the version. */
    public static final int VERSION_OFFSET = 8;
    /** Offset of the node id. */
    public static final int NODE_OFFSET = 12;
    /** Offset of the pid. */
    public static final int PID_OFFSET = 16;
    /** Offset of the start time. */
    public static final int START_OFFSET = 24;
    /** Offset of the metadata length. */
    public static final int METADATA_LENGTH_OFFSET = 32;
    /** Offset of the values length. */
    public static final int VALUES_LENGTH_OFFSET = 36;
    /** Offset of the error log length. */
    public static final int ERROR_LOG_LENGTH_OFFSET = 40;
    /** Offset of the number of input channels. */
    public static final int CHANNELS_OFFSET = 44;
    /** Offset of the device URI's length. */
    public static final int DEVICE_LENGTH_OFFSET = 48;
    /** Offset of the device URI's bytes. */
    public static final int DEVICE_OFFSET = 52;
    /** Longest device URI kept (a longer one is cut). */
    public static final int MAX_DEVICE_LENGTH = 76;
    /** Length of the header. */
    public static final int HEADER_LENGTH = 128;
    /** Length of the error log a node makes. */
    public static final int ERROR_LOG_LENGTH = 256 * 1024;
    /** Largest file a reader accepts. */
    public static final long MAX_FILE_LENGTH = 64L * 1024 * 1024;
    /** Byte order of every field. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    private CountersFileDescriptor()
    {
    }

    /**
     * @param counters counter ids.
     * @return the file length for them.
     */
    public static long fileLength(final int counters)
    {
        return HEADER_LENGTH + (long)counters * (CountersReader.METADATA_LENGTH + CountersReader.COUNTER_LENGTH) +
            ERROR_LOG_LENGTH;
    }

    /**
     * @param buffer the file's bytes.
     * @return where the metadata starts.
     */
    public static int metadataOffset(final DirectBuffer buffer)
    {
        return HEADER_LENGTH;
    }

    /**
     * @param buffer the file's bytes.
     * @return where the values start.
     */
    public static int valuesOffset(final DirectBuffer buffer)
    {
        return HEADER_LENGTH + buffer.getInt(METADATA_LENGTH_OFFSET, BYTE_ORDER);
    }

    /**
     * @param buffer the file's bytes.
     * @return where the error log starts.
     */
    public static int errorLogOffset(final DirectBuffer buffer)
    {
        return valuesOffset(buffer) + buffer.getInt(VALUES_LENGTH_OFFSET, BYTE_ORDER);
    }

    /**
     * Check a copy of a counters file: every length, offset and record a reader uses stays inside it.
     *
     * @param buffer a private copy of the file (a live node keeps writing the file itself).
     * @param length bytes in the copy.
     * @return null when the copy is sound, else what is wrong, in a few words.
     */
    public static String validate(final DirectBuffer buffer, final int length)
    {
        if (length < HEADER_LENGTH)
        {
            return "is " + length + " bytes, shorter than the " + HEADER_LENGTH + "-byte header";
        }
        if (buffer.getLong(MAGIC_OFFSET, BYTE_ORDER) != MAGIC)
        {
            return "is not a counters file (no rfmrtCNT magic)";
        }
        final int version = buffer.getInt(VERSION_OFFSET, BYTE_ORDER);
        if (version == 0)
        {
            return "is not filled in yet (version 0: the node is starting)";
        }
        if (version != VERSION)
        {
            return "has version " + version + "; this rfmrt reads version " + VERSION;
        }
        final int node = buffer.getInt(NODE_OFFSET, BYTE_ORDER);
        if (node < 0 || node > 255)
        {
            return "names node " + node + " (0-255)";
        }
        final int metadata = buffer.getInt(METADATA_LENGTH_OFFSET, BYTE_ORDER);
        final int values = buffer.getInt(VALUES_LENGTH_OFFSET, BYTE_ORDER);
        final int errors = buffer.getInt(ERROR_LOG_LENGTH_OFFSET, BYTE_ORDER);
        if (values <= 0 || values % CountersReader.COUNTER_LENGTH != 0 ||
            (long)metadata != (long)values / CountersReader.COUNTER_LENGTH * CountersReader.METADATA_LENGTH)
        {
            return "has metadata length " + metadata + " and values length " + values +
                " that do not describe whole counters";
        }
        if (errors < 0 || errors % BitUtil.CACHE_LINE_LENGTH != 0)
        {
            return "has error log length " + errors;
        }
        final long total = (long)HEADER_LENGTH + metadata + values + errors;
        if (total != length)
        {
            return "is " + length + " bytes, but its header describes " + total;
        }
        final int channels = buffer.getInt(CHANNELS_OFFSET, BYTE_ORDER);
        if (channels < 0 || channels > CounterIds.MAX_CHANNELS)
        {
            return "names " + channels + " input channels";
        }
        final int deviceLength = buffer.getInt(DEVICE_LENGTH_OFFSET, BYTE_ORDER);
        if (deviceLength < 0 || deviceLength > MAX_DEVICE_LENGTH)
        {
            return "has a device name of " + deviceLength + " bytes (at most " + MAX_DEVICE_LENGTH + ")";
        }
        final String records = validateMetadata(buffer, HEADER_LENGTH, metadata);
        return records != null ? records : validateErrorLog(buffer, HEADER_LENGTH + metadata + values, errors);
    }

    private static String validateMetadata(final DirectBuffer buffer, final int offset, final int length)
    {
        for (int id = 0, at = offset; at < offset + length; id++, at += CountersReader.METADATA_LENGTH)
        {
            final int state = buffer.getInt(at, BYTE_ORDER);
            if (state == CountersReader.RECORD_UNUSED)
            {
                return null;
            }
            if (state != CountersReader.RECORD_ALLOCATED && state != CountersReader.RECORD_RECLAIMED)
            {
                return "has counter " + id + " in state " + state;
            }
            final int label = buffer.getInt(at + CountersReader.LABEL_OFFSET, BYTE_ORDER);
            if (label < 0 || label > CountersReader.MAX_LABEL_LENGTH)
            {
                return "has counter " + id + " with a label of " + label + " bytes";
            }
        }
        return null;
    }

    private static String validateErrorLog(final DirectBuffer buffer, final int offset, final int length)
    {
        int at = 0;
        while (at + DistinctErrorLog.ENCODED_ERROR_OFFSET <= length)
        {
            final int record = buffer.getInt(offset + at + DistinctErrorLog.LENGTH_OFFSET, BYTE_ORDER);
            if (record == 0)
            {
                return null;
            }
            if (record < DistinctErrorLog.ENCODED_ERROR_OFFSET || record > length - at)
            {
                return "has an error record of " + record + " bytes at error log offset " + at;
            }
            if (buffer.getInt(offset + at + DistinctErrorLog.OBSERVATION_COUNT_OFFSET, BYTE_ORDER) < 0)
            {
                return "has an error record with a negative count at error log offset " + at;
            }
            at += BitUtil.align(record, DistinctErrorLog.RECORD_ALIGNMENT);
        }
        return null;
    }
}
