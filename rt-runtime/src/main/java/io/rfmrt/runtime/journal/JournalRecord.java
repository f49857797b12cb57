package io.rfmrt.runtime.journal;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.BYTE_ORDER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_COUNT_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_VALUES_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_CODE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_SEQ_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_VALUE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_CONSUMER_START_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_CRC_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_FLAGS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_HANDLER_END_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_PAYLOAD_LENGTH_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_PAYLOAD_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SEND_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SEQ_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SOURCE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_VALIDATED_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_WOKE_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.JOURNAL_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.KIND_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.NODE_ID_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.RECORD_HEADER_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_CYCLE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_KIND_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_STATE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_VALUES_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_VALUE_COUNT;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_FROM_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_TO_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.WRITER_ID_OFFSET;
import static org.agrona.BitUtil.SIZE_OF_DOUBLE;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * One journal record, as read by {@link JournalReader#next}: a reusable flyweight over a private copy of the record,
 * valid until the next call of {@code next} with it. The common accessors work for every kind; the others only for
 * the kinds named in their documentation, and throw {@link IllegalStateException} for any other kind. Times are
 * {@code System.nanoTime()} values in nanoseconds of the node that wrote the journal.
 *
 * <p>Threading: one thread at a time.
 */
public final class JournalRecord
{
    private static final String[] NO_NAMES = new String[0];

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);
    private int length;
    private RecordKind kind;
    private String[] writerNames = NO_NAMES;

    /** Values in every SAMPLE record ({@link #value(int)} takes 0 up to one less). */
    public static final int SAMPLE_VALUES = SAMPLE_VALUE_COUNT;

    /**
     * An empty record, to be filled by {@link JournalReader#next}.
     */
    public JournalRecord()
    {
    }

    /**
     * @return the kind; {@code null} before the first successful {@link JournalReader#next}.
     */
    public RecordKind kind()
    {
        return kind;
    }

    /**
     * @return the record layout version.
     */
    public int version()
    {
        return buffer.getByte(VERSION_OFFSET) & 0xFF;
    }

    /**
     * @return node id of the journal that wrote the record.
     */
    public int nodeId()
    {
        return buffer.getInt(NODE_ID_OFFSET, BYTE_ORDER);
    }

    /**
     * @return id of the writer that produced it (0, 1, ... in creation order within one journal session).
     */
    public int writerId()
    {
        return buffer.getShort(WRITER_ID_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /**
     * @return name of the writer that produced it, or {@code null} when the journal header naming it was not read.
     */
    public String writer()
    {
        final int id = writerId();
        return id < writerNames.length ? writerNames[id] : null;
    }

    /**
     * @return when the journal thread wrote the record.
     */
    public long journalNanos()
    {
        return buffer.getLong(JOURNAL_NANOS_OFFSET, BYTE_ORDER);
    }

    /**
     * @return FRAME, FAULT: the sequence number.
     */
    public long seq()
    {
        if (kind == RecordKind.FAULT)
        {
            return body(FAULT_SEQ_OFFSET);
        }
        require(RecordKind.FRAME, "seq");
        return body(FRAME_SEQ_OFFSET);
    }

    /**
     * @return FRAME: sending node id.
     */
    public int source()
    {
        require(RecordKind.FRAME, "source");
        return bodyInt(FRAME_SOURCE_OFFSET);
    }

    /**
     * @return FRAME: frame header flags.
     */
    public int flags()
    {
        require(RecordKind.FRAME, "flags");
        return bodyInt(FRAME_FLAGS_OFFSET);
    }

    /**
     * @return FRAME: CRC32C of the payload, from the frame header.
     */
    public int crc32c()
    {
        require(RecordKind.FRAME, "crc32c");
        return bodyInt(FRAME_CRC_OFFSET);
    }

    /**
     * @return FRAME: the sender's stamp at publish.
     */
    public long sendNanos()
    {
        require(RecordKind.FRAME, "sendNanos");
        return body(FRAME_SEND_NANOS_OFFSET);
    }

    /**
     * @return FRAME: the ISR-wake thread woke.
     */
    public long wokeNanos()
    {
        require(RecordKind.FRAME, "wokeNanos");
        return body(FRAME_WOKE_NANOS_OFFSET);
    }

    /**
     * @return FRAME: the frame was validated in host memory.
     */
    public long validatedNanos()
    {
        require(RecordKind.FRAME, "validatedNanos");
        return body(FRAME_VALIDATED_NANOS_OFFSET);
    }

    /**
     * @return FRAME: the consumer started on it.
     */
    public long consumerStartNanos()
    {
        require(RecordKind.FRAME, "consumerStartNanos");
        return body(FRAME_CONSUMER_START_NANOS_OFFSET);
    }

    /**
     * @return FRAME: the handler returned.
     */
    public long handlerEndNanos()
    {
        require(RecordKind.FRAME, "handlerEndNanos");
        return body(FRAME_HANDLER_END_NANOS_OFFSET);
    }

    /**
     * @return FRAME: the buffer that holds the payload at {@link #payloadOffset()}; valid until the next read.
     */
    public DirectBuffer payload()
    {
        require(RecordKind.FRAME, "payload");
        return buffer;
    }

    /**
     * @return FRAME: where the payload starts in {@link #payload()}.
     */
    public int payloadOffset()
    {
        require(RecordKind.FRAME, "payloadOffset");
        return RECORD_HEADER_LENGTH + FRAME_PAYLOAD_OFFSET;
    }

    /**
     * @return FRAME: payload bytes.
     */
    public int payloadLength()
    {
        require(RecordKind.FRAME, "payloadLength");
        return bodyInt(FRAME_PAYLOAD_LENGTH_OFFSET);
    }

    /**
     * @return FAULT: the fault code.
     */
    public int code()
    {
        require(RecordKind.FAULT, "code");
        return bodyInt(FAULT_CODE_OFFSET);
    }

    /**
     * @return FAULT: the value that goes with the code.
     */
    public long value()
    {
        require(RecordKind.FAULT, "value");
        return body(FAULT_VALUE_OFFSET);
    }

    /**
     * @return FAULT, STATE, COUNTERS, SAMPLE: when it happened, as the producer stamped it.
     */
    public long nanos()
    {
        if (kind == RecordKind.FRAME || kind == null)
        {
            throw new IllegalStateException("nanos() is not valid for a " + kind + " record");
        }
        // every kind but FRAME starts its body with nanos
        return body(FAULT_NANOS_OFFSET);
    }

    /**
     * @return STATE: the state before.
     */
    public int from()
    {
        require(RecordKind.STATE, "from");
        return bodyInt(STATE_FROM_OFFSET);
    }

    /**
     * @return STATE: the state after.
     */
    public int to()
    {
        require(RecordKind.STATE, "to");
        return bodyInt(STATE_TO_OFFSET);
    }

    /**
     * @return COUNTERS: number of counter values.
     */
    public int counterCount()
    {
        require(RecordKind.COUNTERS, "counterCount");
        return bodyInt(COUNTERS_COUNT_OFFSET);
    }

    /**
     * @param i 0 to {@link #counterCount()} - 1.
     * @return COUNTERS: value {@code i}.
     */
    public long counter(final int i)
    {
        final int count = counterCount();
        if (i < 0 || i >= count)
        {
            throw new IndexOutOfBoundsException("counter " + i + " of " + count);
        }
        return body(COUNTERS_VALUES_OFFSET + i * SIZE_OF_LONG);
    }

    /**
     * @return SAMPLE: the sample kind.
     */
    public int sampleKind()
    {
        require(RecordKind.SAMPLE, "sampleKind");
        return bodyInt(SAMPLE_KIND_OFFSET);
    }

    /**
     * @return SAMPLE: the cycle number.
     */
    public long cycle()
    {
        require(RecordKind.SAMPLE, "cycle");
        return body(SAMPLE_CYCLE_OFFSET);
    }

    /**
     * @return SAMPLE: the state id.
     */
    public int state()
    {
        require(RecordKind.SAMPLE, "state");
        return bodyInt(SAMPLE_STATE_OFFSET);
    }

    /**
     * @param i 0-5.
     * @return SAMPLE: value {@code i}.
     */
    public double value(final int i)
    {
        require(RecordKind.SAMPLE, "value");
        if (i < 0 || i >= SAMPLE_VALUE_COUNT)
        {
            throw new IndexOutOfBoundsException("sample value " + i + " of " + SAMPLE_VALUE_COUNT);
        }
        return buffer.getDouble(RECORD_HEADER_LENGTH + SAMPLE_VALUES_OFFSET + i * SIZE_OF_DOUBLE, BYTE_ORDER);
    }

    /**
     * @return one line with the kind and every field.
     */
    @Override
    public String toString()
    {
        if (kind == null)
        {
            return "JournalRecord{empty}";
        }
        final StringBuilder text = new StringBuilder(128).append(kind)
            .append(" node=").append(nodeId())
            .append(" writer=").append(writer())
            .append(" journalNanos=").append(journalNanos());
        switch (kind)
        {
            case FRAME -> text.append(" seq=").append(seq()).append(" source=").append(source())
                .append(" flags=").append(flags()).append(" crc32c=").append(Integer.toHexString(crc32c()))
                .append(" send=").append(sendNanos()).append(" woke=").append(wokeNanos())
                .append(" validated=").append(validatedNanos()).append(" consumerStart=").append(consumerStartNanos())
                .append(" handlerEnd=").append(handlerEndNanos()).append(" payloadLength=").append(payloadLength());
            case FAULT -> text.append(" code=").append(code()).append(" seq=").append(seq())
                .append(" value=").append(value()).append(" nanos=").append(nanos());
            case STATE -> text.append(" from=").append(from()).append(" to=").append(to())
                .append(" nanos=").append(nanos());
            case COUNTERS ->
            {
                text.append(" nanos=").append(nanos()).append(" counters=[");
                for (int i = 0; i < counterCount(); i++)
                {
                    text.append(i == 0 ? "" : ",").append(counter(i));
                }
                text.append(']');
            }
            case SAMPLE ->
            {
                text.append(" sampleKind=").append(sampleKind()).append(" nanos=").append(nanos())
                    .append(" cycle=").append(cycle()).append(" state=").append(state()).append(" values=[");
                for (int i = 0; i < SAMPLE_VALUE_COUNT; i++)
                {
                    text.append(i == 0 ? "" : ",").append(value(i));
                }
                text.append(']');
            }
            default -> throw new IllegalStateException("unknown kind " + kind);
        }
        return text.toString();
    }

    /**
     * Make room for a record of {@code length} bytes, which the reader then copies into the returned array.
     */
    byte[] prepare(final int length)
    {
        byte[] array = buffer.byteArray();
        if (array.length < length)
        {
            array = new byte[Math.max(length, array.length * 2)];
            buffer.wrap(array);
        }
        this.length = length;
        this.kind = null;
        return array;
    }

    void set(final RecordKind kind, final String[] writerNames)
    {
        this.kind = kind;
        this.writerNames = writerNames;
    }

    int length()
    {
        return length;
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    int kindId()
    {
        return buffer.getByte(KIND_OFFSET) & 0xFF;
    }

    private void require(final RecordKind expected, final String accessor)
    {
        if (kind != expected)
        {
            throw new IllegalStateException(accessor + "() is not valid for a " + kind + " record");
        }
    }

    private long body(final int offset)
    {
        return buffer.getLong(RECORD_HEADER_LENGTH + offset, BYTE_ORDER);
    }

    private int bodyInt(final int offset)
    {
        return buffer.getInt(RECORD_HEADER_LENGTH + offset, BYTE_ORDER);
    }
}
