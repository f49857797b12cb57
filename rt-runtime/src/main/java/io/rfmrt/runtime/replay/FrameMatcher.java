package io.rfmrt.runtime.replay;

import org.HdrHistogram.Histogram;
import org.agrona.collections.Long2LongHashMap;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Matches frames across the journals of several nodes by (source, seq): which frames every receiving node got,
 * which ones some node missed, and the spread of their handler-end stamps between nodes (meaningful when the nodes
 * share a host clock, as emulated nodes do).
 *
 * <p>Threading: one thread at a time.
 */
public final class FrameMatcher
{
    private static final int SEQ_BITS = 44;
    private static final long SEQ_MASK = (1L << SEQ_BITS) - 1;

    private final Long2LongHashMap seenBy = new Long2LongHashMap(0);
    private final Long2LongHashMap firstEnd = new Long2LongHashMap(Long.MIN_VALUE);
    private final Map<Integer, long[]> receiversBySource = new TreeMap<>();
    private final Histogram spread = SourceStats.newHistogram();
    private final List<String> nodes = new ArrayList<>();

    /**
     * @param nodeNames journal names, in journal order (at most 63).
     */
    public FrameMatcher(final List<String> nodeNames)
    {
        nodes.addAll(nodeNames.subList(0, Math.min(63, nodeNames.size())));
    }

    /**
     * @param node       journal index.
     * @param source     sending node.
     * @param seq        sequence number.
     * @param handlerEnd handler end stamp.
     */
    void frame(final int node, final int source, final long seq, final long handlerEnd)
    {
        if (node >= nodes.size())
        {
            return;
        }
        final long bit = 1L << node;
        receiversBySource.computeIfAbsent(source, s -> new long[1])[0] |= bit;
        final long key = ((long)source << SEQ_BITS) ^ (seq & SEQ_MASK);
        final long before = seenBy.get(key);
        if ((before & bit) != 0)
        {
            return;
        }
        seenBy.put(key, before | bit);
        final long first = firstEnd.get(key);
        if (first == Long.MIN_VALUE)
        {
            firstEnd.put(key, handlerEnd);
        }
        else
        {
            spread.recordValue(Math.min(SourceStats.HIGHEST_TRACKABLE_NS, Math.abs(handlerEnd - first)));
        }
    }

    /**
     * @return per source with frames in more than one journal: {frames, seen by all its receivers, missed by each
     *     receiver}; empty when no source reached two journals.
     */
    public Map<Integer, Map<String, Object>> result()
    {
        final Map<Integer, Map<String, Object>> result = new TreeMap<>();
        for (final Map.Entry<Integer, long[]> source : receiversBySource.entrySet())
        {
            final long receivers = source.getValue()[0];
            if (Long.bitCount(receivers) < 2)
            {
                continue;
            }
            final int id = source.getKey();
            final long[] total = {0, 0};
            final long[] missed = new long[nodes.size()];
            seenBy.forEach((key, mask) ->
            {
                if ((int)(key >>> SEQ_BITS) != id)
                {
                    return;
                }
                total[0]++;
                if ((mask & receivers) == receivers)
                {
                    total[1]++;
                }
                for (int n = 0; n < nodes.size(); n++)
                {
                    if ((receivers & (1L << n)) != 0 && (mask & (1L << n)) == 0)
                    {
                        missed[n]++;
                    }
                }
            });
            final Map<String, Object> row = new LinkedHashMap<>();
            row.put("frames", total[0]);
            row.put("seen_by_all", total[1]);
            final Map<String, Long> missedBy = new LinkedHashMap<>();
            for (int n = 0; n < nodes.size(); n++)
            {
                if ((receivers & (1L << n)) != 0)
                {
                    missedBy.put(nodes.get(n), missed[n]);
                }
            }
            row.put("missed_by", missedBy);
            result.put(id, row);
        }
        return result;
    }

    /**
     * @return spread of the handler-end stamps of one frame between the nodes that got it, ns.
     */
    public Histogram spread()
    {
        return spread;
    }
}
