package io.rfmrt.runtime.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * The frames with the highest end-to-end latency, kept as they stream past: a fixed number of slots, no allocation
 * per frame.
 *
 * <p>Threading: one thread at a time.
 */
public final class WorstFrames
{
    /**
     * One frame with every stamp.
     *
     * @param node               journal name it was read from.
     * @param source             sending node.
     * @param seq                sequence number.
     * @param sendNanos          sender's stamp.
     * @param wokeNanos          ISR-wake thread woke.
     * @param validatedNanos     validated in host memory.
     * @param consumerStartNanos consumer started.
     * @param handlerEndNanos    handler returned.
     */
    public record Frame(String node, int source, long seq, long sendNanos, long wokeNanos, long validatedNanos,
        long consumerStartNanos, long handlerEndNanos)
    {
        /**
         * @return handler end − send, ns.
         */
        public long e2eNanos()
        {
            return handlerEndNanos - sendNanos;
        }

        /**
         * @return woke − send, ns.
         */
        public long transferNanos()
        {
            return wokeNanos - sendNanos;
        }

        /**
         * @return validated − woke, ns.
         */
        public long isrNanos()
        {
            return validatedNanos - wokeNanos;
        }

        /**
         * @return consumer start − validated, ns.
         */
        public long handoffNanos()
        {
            return consumerStartNanos - validatedNanos;
        }

        /**
         * @return handler end − consumer start, ns.
         */
        public long handlerNanos()
        {
            return handlerEndNanos - consumerStartNanos;
        }
    }

    private final int capacity;
    private final String[] node;
    private final int[] source;
    private final long[][] stamps;
    private final long[] e2e;
    private int size;
    private int minIndex;

    /**
     * @param capacity how many frames to keep.
     */
    public WorstFrames(final int capacity)
    {
        this.capacity = capacity;
        node = new String[capacity];
        source = new int[capacity];
        stamps = new long[capacity][6];
        e2e = new long[capacity];
    }

    /**
     * Offer a frame.
     */
    void offer(final String nodeName, final int src, final long seq, final long send, final long woke,
        final long validated, final long consumerStart, final long handlerEnd)
    {
        final long value = handlerEnd - send;
        final int at;
        if (size < capacity)
        {
            at = size++;
        }
        else if (value > e2e[minIndex])
        {
            at = minIndex;
        }
        else
        {
            return;
        }
        node[at] = nodeName;
        source[at] = src;
        e2e[at] = value;
        final long[] s = stamps[at];
        s[0] = seq;
        s[1] = send;
        s[2] = woke;
        s[3] = validated;
        s[4] = consumerStart;
        s[5] = handlerEnd;
        if (size == capacity)
        {
            int min = 0;
            for (int i = 1; i < size; i++)
            {
                if (e2e[i] < e2e[min])
                {
                    min = i;
                }
            }
            minIndex = min;
        }
    }

    /**
     * @param other frames to merge into this one.
     */
    void addAll(final WorstFrames other)
    {
        for (int i = 0; i < other.size; i++)
        {
            final long[] s = other.stamps[i];
            offer(other.node[i], other.source[i], s[0], s[1], s[2], s[3], s[4], s[5]);
        }
    }

    /**
     * @return the frames kept, worst first.
     */
    public List<Frame> frames()
    {
        final List<Frame> frames = new ArrayList<>(size);
        for (int i = 0; i < size; i++)
        {
            final long[] s = stamps[i];
            frames.add(new Frame(node[i], source[i], s[0], s[1], s[2], s[3], s[4], s[5]));
        }
        frames.sort((a, b) -> Long.compare(b.e2eNanos(), a.e2eNanos()));
        return frames;
    }
}
