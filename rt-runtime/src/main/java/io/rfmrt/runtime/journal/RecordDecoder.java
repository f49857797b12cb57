package io.rfmrt.runtime.journal;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.runtime.journal.internal.JournalRecordDescriptor;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.BYTE_ORDER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_COUNT_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_FIXED_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_CODE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_CONSUMER_START_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_FIXED_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_HANDLER_END_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_PAYLOAD_LENGTH_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SEND_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SEQ_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SOURCE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_VALIDATED_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_WOKE_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_EPOCH_MILLIS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_KIND_ID;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_LAYOUT_LENGTH_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_MAGIC_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_WRITERS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_WRITER_COUNT_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_WRITER_ENTRY_FIXED_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.MAGIC;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.MAX_LAYOUT_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.NO_WRITER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.RECORD_HEADER_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_KIND_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION_BY_POSITION;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION_WITHOUT_LAYOUT;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.readable;
import static org.agrona.BitUtil.SIZE_OF_LONG;
import static org.agrona.BitUtil.SIZE_OF_SHORT;

/**
 * Decodes the records a {@link JournalReader} finds ({@link JournalRecordDescriptor}) and checks every field with a
 * range, so that no value out of its range reaches a reader: a record that fails is damage. It keeps what the
 * journal headers say (the writers' names, the node id, the first and the last header), by which the records after
 * them are checked:
 * <pre>
 *   document bytes --decode--> null            a record to return ({@link JournalRecord#set} done)
 *                          \--> HEADER_READ     a journal header, taken in (writers, node, clock)
 *                           \-> "why"           damage: what in the record cannot be right
 * </pre>
 * The same id checks judge a candidate position while the framing walk looks for where reading resumes after damage.
 *
 * <p>Threading: the reader's thread. Allocation-free per record, except for journal headers and the text of what
 * is wrong.
 */
final class RecordDecoder
{
    /** What {@link #decode} returns for a journal header taken in (compared by identity). */
    static final String HEADER_READ = "journal header";
    /** Sequence numbers of a frame are below this (2^48: 89 years at 100 kHz); a higher one is damage. */
    static final long MAX_SEQ = 1L << 48;
    /**
     * Time stamps are {@code System.nanoTime()} readings, which on Linux count from the host's boot: below this
     * (2^58 ns, 9.1 years); a higher or negative one is damage.
     */
    static final long MAX_NANOS = 1L << 58;

    private static final int[] FRAME_STAMP_OFFSETS = {FRAME_SEND_NANOS_OFFSET, FRAME_WOKE_NANOS_OFFSET,
        FRAME_VALIDATED_NANOS_OFFSET, FRAME_CONSUMER_START_NANOS_OFFSET, FRAME_HANDLER_END_NANOS_OFFSET};

    private String[] writerNames = new String[0];
    private boolean headerSeen;
    private JournalHeader firstHeader;
    private JournalHeader lastHeader;
    private long headers;

    /**
     * @return the first journal header taken in, or {@code null}.
     */
    JournalHeader firstHeader()
    {
        return firstHeader;
    }

    /**
     * @return the journal header taken in last, or {@code null}.
     */
    JournalHeader lastHeader()
    {
        return lastHeader;
    }

    /**
     * @return journal headers taken in.
     */
    long headers()
    {
        return headers;
    }

    /**
     * Forget every journal header taken in: reading starts again from the first file.
     */
    void reset()
    {
        headerSeen = false;
        writerNames = new String[0];
        firstHeader = null;
        lastHeader = null;
        headers = 0;
    }

    /** @return why {@code nodeId} cannot be this journal's node, or {@code null}. */
    String nodeIdProblem(final int nodeId)
    {
        if (nodeId < 0 || nodeId > RfmDevice.MAX_NODE_ID)
        {
            return "node id " + nodeId + " (node ids are 0-" + RfmDevice.MAX_NODE_ID + ")";
        }
        if (lastHeader != null && nodeId != lastHeader.nodeId())
        {
            return "node id " + nodeId + " in the journal of node " + lastHeader.nodeId();
        }
        return null;
    }

    /** @return why {@code writerId} names no writer of this journal, or {@code null}. */
    String writerIdProblem(final int writerId)
    {
        if (headerSeen ? writerId >= writerNames.length : writerId == NO_WRITER)
        {
            return "writer id " + writerId + (headerSeen ? " (the journal header names " + writerNames.length +
                " writers)" : "");
        }
        return null;
    }

    /**
     * Whether the first document is a journal header of version {@value JournalRecordDescriptor#VERSION_BY_POSITION}
     * (kind, writer id and magic all in place): a journal of the old numbering, refused whole. A version byte of 1
     * anywhere else is damage in that record.
     */
    static boolean oldJournalHeader(final JournalRecord record)
    {
        final UnsafeBuffer buffer = record.buffer();
        return record.length() >= RECORD_HEADER_LENGTH + HEADER_WRITERS_OFFSET &&
            record.version() == VERSION_BY_POSITION && record.kindId() == HEADER_KIND_ID &&
            record.writerId() == NO_WRITER &&
            buffer.getLong(RECORD_HEADER_LENGTH + HEADER_MAGIC_OFFSET, BYTE_ORDER) == MAGIC;
    }

    /**
     * @return {@code null} for a record to return, {@link #HEADER_READ} for a journal header taken in, or why the
     *         record cannot be understood.
     */
    String decode(final JournalRecord into, final int length)
    {
        if (length < RECORD_HEADER_LENGTH)
        {
            return "is shorter than a record header (" + RECORD_HEADER_LENGTH + " bytes)";
        }
        final UnsafeBuffer buffer = into.buffer();
        final int version = into.version();
        if (!readable(version))
        {
            return "has layout version " + version + "; this reader knows versions " + VERSION_WITHOUT_LAYOUT +
                " and " + VERSION + " only (written by a newer rfmrt?)";
        }
        final int kindId = into.kindId();
        if (kindId == HEADER_KIND_ID)
        {
            if (into.writerId() != NO_WRITER)
            {
                return "is a journal header with writer id " + into.writerId() + " (it has " + NO_WRITER + ")";
            }
            final int node = into.nodeId();
            if (node < 0 || node > RfmDevice.MAX_NODE_ID)
            {
                return "is a journal header with node id " + node + " (node ids are 0-" + RfmDevice.MAX_NODE_ID + ")";
            }
            final String why = readHeader(buffer, length, version, node, into.journalNanos());
            return why == null ? HEADER_READ : why;
        }
        final RecordKind kind = RecordKind.fromId(kindId);
        if (kind == null)
        {
            return "has unknown kind " + kindId;
        }
        final int body = length - RECORD_HEADER_LENGTH;
        final String why = switch (kind)
        {
            case FRAME ->
            {
                final String s = shortBody(kind, body, FRAME_FIXED_LENGTH);
                final long payload = s == null ?
                    buffer.getInt(RECORD_HEADER_LENGTH + FRAME_PAYLOAD_LENGTH_OFFSET, BYTE_ORDER) : 0;
                yield s != null ? s : payload >= 0 && FRAME_FIXED_LENGTH + payload == body ? null :
                    "is a FRAME with payloadLength " + payload + " that does not match its body of " + body + " bytes";
            }
            case FAULT -> exactBody(kind, body, FAULT_LENGTH);
            case STATE -> exactBody(kind, body, STATE_LENGTH);
            case COUNTERS ->
            {
                final String s = shortBody(kind, body, COUNTERS_FIXED_LENGTH);
                final long count = s == null ?
                    buffer.getInt(RECORD_HEADER_LENGTH + COUNTERS_COUNT_OFFSET, BYTE_ORDER) : 0;
                yield s != null ? s : count >= 0 && COUNTERS_FIXED_LENGTH + count * SIZE_OF_LONG == body ? null :
                    "is a COUNTERS record with count " + count + " that does not match its body of " + body + " bytes";
            }
            case SAMPLE -> exactBody(kind, body, SAMPLE_LENGTH);
        };
        if (why != null)
        {
            return why;
        }
        final String ids = idProblem(into);
        final String range = ids != null ? ids : fieldProblem(kind, buffer);
        if (range != null)
        {
            return "is a " + kind + " record with " + range;
        }
        into.set(kind, writerNames);
        return null;
    }

    /** @return what in the record header names no node, writer or time of this journal, or {@code null}. */
    private String idProblem(final JournalRecord record)
    {
        final String node = nodeIdProblem(record.nodeId());
        if (node != null)
        {
            return node;
        }
        final String writer = writerIdProblem(record.writerId());
        if (writer != null)
        {
            return writer;
        }
        final long journalNanos = record.journalNanos();
        if (journalNanos < 0 || journalNanos >= MAX_NANOS)
        {
            return "journalNanos " + journalNanos + outsideNanos();
        }
        if (lastHeader != null && journalNanos < lastHeader.journalNanos())
        {
            return "journalNanos " + journalNanos + ", before its journal header's " + lastHeader.journalNanos();
        }
        return null;
    }

    /**
     * @return the first body field outside its range, or {@code null}: a node id 0-255, a sequence number from 0
     *         below {@value #MAX_SEQ}, a time stamp from 0 below {@value #MAX_NANOS}, a code or count not negative.
     *         A record that fails is damage; its values never reach a reader.
     */
    private static String fieldProblem(final RecordKind kind, final UnsafeBuffer buffer)
    {
        final int b = RECORD_HEADER_LENGTH;
        return switch (kind)
        {
            case FRAME ->
            {
                final int source = buffer.getInt(b + FRAME_SOURCE_OFFSET, BYTE_ORDER);
                final long seq = buffer.getLong(b + FRAME_SEQ_OFFSET, BYTE_ORDER);
                if (source < 0 || source > RfmDevice.MAX_NODE_ID)
                {
                    yield "source " + source + " (node ids are 0-" + RfmDevice.MAX_NODE_ID + ")";
                }
                if (seq < 0 || seq >= MAX_SEQ)
                {
                    yield "seq " + seq + " (sequence numbers are 0 to " + (MAX_SEQ - 1) + ")";
                }
                for (final int offset : FRAME_STAMP_OFFSETS)
                {
                    final long nanos = buffer.getLong(b + offset, BYTE_ORDER);
                    if (nanos < 0 || nanos >= MAX_NANOS)
                    {
                        yield "a time stamp of " + nanos + outsideNanos();
                    }
                }
                yield null;
            }
            case FAULT -> nanosProblem(buffer.getLong(b + FAULT_NANOS_OFFSET, BYTE_ORDER),
                buffer.getInt(b + FAULT_CODE_OFFSET, BYTE_ORDER), "code");
            case STATE -> nanosProblem(buffer.getLong(b + STATE_NANOS_OFFSET, BYTE_ORDER), 0, "");
            case COUNTERS -> nanosProblem(buffer.getLong(b + COUNTERS_NANOS_OFFSET, BYTE_ORDER),
                buffer.getInt(b + COUNTERS_COUNT_OFFSET, BYTE_ORDER), "count");
            case SAMPLE -> nanosProblem(buffer.getLong(b + SAMPLE_NANOS_OFFSET, BYTE_ORDER),
                buffer.getInt(b + SAMPLE_KIND_OFFSET, BYTE_ORDER), "sample kind");
        };
    }

    private static String nanosProblem(final long nanos, final int notNegative, final String name)
    {
        if (nanos < 0 || nanos >= MAX_NANOS)
        {
            return "nanos " + nanos + outsideNanos();
        }
        return notNegative < 0 ? name + " " + notNegative + " (not negative)" : null;
    }

    private static String outsideNanos()
    {
        return " (stamps are System.nanoTime() readings, 0 to " + (MAX_NANOS - 1) + ")";
    }

    private static String shortBody(final RecordKind kind, final int body, final int needed)
    {
        return body < needed ? "is a " + kind + " record with a body of " + body + " bytes; it needs " + needed : null;
    }

    private static String exactBody(final RecordKind kind, final int body, final int needed)
    {
        return body != needed ? "is a " + kind + " record with a body of " + body + " bytes; it has " + needed : null;
    }

    private String readHeader(final UnsafeBuffer buffer, final int length, final int version, final int nodeId,
        final long journalNanos)
    {
        final int body = length - RECORD_HEADER_LENGTH;
        if (body < HEADER_WRITERS_OFFSET || buffer.getLong(RECORD_HEADER_LENGTH + HEADER_MAGIC_OFFSET, BYTE_ORDER) !=
            MAGIC)
        {
            return "is a journal header without the journal magic";
        }
        final int count = buffer.getInt(RECORD_HEADER_LENGTH + HEADER_WRITER_COUNT_OFFSET, BYTE_ORDER);
        if (count < 0 || (long)count * HEADER_WRITER_ENTRY_FIXED_LENGTH > body)
        {
            return "is a journal header with writer count " + count;
        }
        final int layoutLength = version == VERSION_WITHOUT_LAYOUT ? 0 :
            buffer.getInt(RECORD_HEADER_LENGTH + HEADER_LAYOUT_LENGTH_OFFSET, BYTE_ORDER);
        if (layoutLength < 0 || layoutLength > MAX_LAYOUT_LENGTH || layoutLength > body)
        {
            return "is a journal header with layout length " + layoutLength;
        }
        final String[] names = new String[count];
        int at = RECORD_HEADER_LENGTH + HEADER_WRITERS_OFFSET;
        for (int i = 0; i < count; i++)
        {
            if (at + HEADER_WRITER_ENTRY_FIXED_LENGTH > length)
            {
                return "is a journal header cut short in writer entry " + i;
            }
            final int id = buffer.getShort(at, BYTE_ORDER) & 0xFFFF;
            final int nameLength = buffer.getShort(at + SIZE_OF_SHORT, BYTE_ORDER) & 0xFFFF;
            at += HEADER_WRITER_ENTRY_FIXED_LENGTH;
            if (id >= count || at + nameLength > length)
            {
                return "is a journal header with a bad writer entry " + i;
            }
            final byte[] name = new byte[nameLength];
            buffer.getBytes(at, name);
            names[id] = new String(name, StandardCharsets.US_ASCII);
            at += nameLength;
        }
        if (at + layoutLength != length)
        {
            return "is a journal header with " + (length - at) + " bytes after its last writer entry" +
                (version == VERSION_WITHOUT_LAYOUT ? "" : " for a layout of " + layoutLength);
        }
        String layout = null;
        if (layoutLength > 0)
        {
            final byte[] text = new byte[layoutLength];
            buffer.getBytes(at, text);
            layout = new String(text, StandardCharsets.UTF_8);
        }
        writerNames = names;
        headerSeen = true;
        final JournalHeader header = new JournalHeader(version, nodeId, journalNanos,
            buffer.getLong(RECORD_HEADER_LENGTH + HEADER_EPOCH_MILLIS_OFFSET, BYTE_ORDER),
            buffer.getLong(RECORD_HEADER_LENGTH + HEADER_NANOS_OFFSET, BYTE_ORDER), Arrays.asList(names),
            layout);
        if (firstHeader == null)
        {
            firstHeader = header;
        }
        lastHeader = header;
        headers++;
        return null;
    }
}
