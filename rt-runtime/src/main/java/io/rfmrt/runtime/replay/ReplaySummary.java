package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.journal.RecordKind;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.util.List;

/**
 * The result of a {@link Replay}: one {@link NodeAnalysis} per journal, the cross-node match, and what the codes
 * mean. Rendering it (text for a terminal, JSON) is the caller's; what an application's records add up to is in the
 * application's {@link ReplayListener}s.
 *
 * @param dir        the folder the journals were found under.
 * @param filter     what was kept.
 * @param vocabulary what the codes in the records mean.
 * @param nodes      one analysis per journal, in name order.
 * @param matcher    the cross-node match, or {@code null} for a single journal.
 */
public record ReplaySummary(Path dir, ReplayFilter filter, ReplayVocabulary vocabulary, List<NodeAnalysis> nodes,
    FrameMatcher matcher)
{
    /** Stages in report order: end to end first. */
    public static final List<Stage> STAGE_ORDER = List.of(Stage.END_TO_END, Stage.TRANSFER, Stage.ISR,
        Stage.HANDOFF, Stage.HANDLER);

    /**
     * @param dir        the folder the journals were found under.
     * @param filter     what was kept.
     * @param vocabulary what the codes mean.
     * @param nodes      the analyses; copied.
     * @param matcher    the cross-node match, or {@code null}.
     */
    public ReplaySummary
    {
        nodes = List.copyOf(nodes);
    }

    /**
     * @return whether at least one journal could be opened.
     */
    public boolean anythingRead()
    {
        return nodes.stream().anyMatch(n -> n.opened() && (n.recordsRead() > 0 || n.damageCount() == 0));
    }

    /**
     * @return records read over every journal.
     */
    public long recordsRead()
    {
        return nodes.stream().mapToLong(NodeAnalysis::recordsRead).sum();
    }

    /**
     * @return FRAME records kept over every journal.
     */
    public long frames()
    {
        return nodes.stream().mapToLong(n -> n.count(RecordKind.FRAME)).sum();
    }

    /**
     * @param stage a stage.
     * @return a new histogram of that stage over every journal and source kept, ns.
     */
    public Histogram histogram(final Stage stage)
    {
        final Histogram sum = SourceStats.newHistogram();
        for (final NodeAnalysis node : nodes)
        {
            for (final SourceStats source : node.sources())
            {
                sum.add(source.histogram(stage));
            }
        }
        return sum;
    }

    /**
     * @return the worst frames over every journal, worst first.
     */
    public List<WorstFrames.Frame> worstFrames()
    {
        final WorstFrames all = new WorstFrames(Replay.WORST_FRAMES);
        nodes.forEach(node -> all.addAll(node.worst()));
        return all.frames();
    }
}
