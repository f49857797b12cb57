package io.rfmrt.cli.demo;

import io.rfmrt.cli.common.Failures;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.control.excite.ExcitationLimits;
import io.rfmrt.control.excite.ExcitationSpec;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayFilter;
import io.rfmrt.runtime.replay.ReplayListener;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code rfmrt demo --excite SPEC}: the spec checked before anything starts (one line naming the bad key or value, or
 * the limit it is above, with the controller's default limits), announced, and after the run how it went, read from
 * the controller's journal (cycles injected, and why it ended).
 */
final class DemoExcitation
{
    private DemoExcitation()
    {
    }

    /**
     * @param spec the option's value, or null.
     * @param rate the loop rate, Hz.
     * @throws UsageException {@code --excite 'SPEC': problem}.
     */
    static void check(final String spec, final int rate)
    {
        if (spec == null)
        {
            return;
        }
        String problem;
        try
        {
            problem = ExcitationSpec.parse(spec).problemFor(1.0 / rate, ExcitationLimits.defaults());
        }
        catch (final IllegalArgumentException ex)
        {
            problem = ex.getMessage();
        }
        if (problem != null)
        {
            throw new UsageException("--excite '" + spec + "': " + problem.substring(problem.indexOf(':') + 2));
        }
    }

    /**
     * @param spec    the option's value, or null.
     * @param console where to say it.
     */
    static void announce(final String spec, final PrintWriter console)
    {
        if (spec != null)
        {
            console.printf("rfmrt demo: excitation %s%n", ExcitationSpec.parse(spec));
        }
    }

    /**
     * Say how the excitation went, from the controller's journal.
     *
     * @param spec    the option's value, or null.
     * @param journal the controller's journal folder.
     * @param console where to say it.
     */
    static void report(final String spec, final Path journal, final PrintWriter console)
    {
        if (spec == null)
        {
            return;
        }
        final long[] seen = {0, 0, -1};
        try
        {
            Replay.run(journal, ReplayFilter.ALL, ControlJournal.vocabulary(), List.of(new ReplayListener()
            {
                @Override
                public void fault(final NodeAnalysis node, final JournalRecord record)
                {
                    if (record.code() == ControlJournal.FAULT_EXCITATION_STOPPED)
                    {
                        seen[1] = record.value();
                        seen[2] = record.seq();
                    }
                }

                @Override
                public void sample(final NodeAnalysis node, final JournalRecord record)
                {
                    seen[0] += record.sampleKind() == ControlJournal.SAMPLE_EXCITATION ? 1 : 0;
                }
            }));
        }
        catch (final RuntimeException ex)
        {
            console.println("rfmrt demo: excitation: the controller's journal could not be read: " +
                Failures.describe(ex));
            return;
        }
        console.printf("rfmrt demo: excitation: %d cycles injected (EXCITATION samples), %s%n", seen[0],
            seen[2] < 0 ? "not ended (the run stopped first)" : "ended at cycle " + seen[2] + ": " + why(seen[1]));
    }

    private static String why(final long reason)
    {
        return switch ((int)reason)
        {
            case ControlJournal.EXCITATION_DONE -> "done";
            case ControlJournal.EXCITATION_FAULT -> "stopped by a fault or trip";
            case ControlJournal.EXCITATION_DEADLINE_MISSES -> "stopped by a burst of deadline misses";
            case ControlJournal.EXCITATION_REFUSED -> "refused (the drive not operation-enabled, or supervision off, " +
                "when it was due)";
            default -> "reason " + reason;
        };
    }
}
