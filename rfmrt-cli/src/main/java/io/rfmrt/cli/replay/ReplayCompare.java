package io.rfmrt.cli.replay;

import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.replay.ControlCompare;
import io.rfmrt.runtime.replay.ReplayVocabulary;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code rfmrt replay A B --compare}: two controller journals cycle by cycle ({@link ControlCompare}), as text or
 * JSON, and with {@code --csv} one row per cycle in both. See docs/replay.md, "Comparing two runs".
 */
final class ReplayCompare
{
    /** Header line of the per-cycle CSV. */
    static final String CSV_HEADER = "cycle,state_a,state_b,torque_a,torque_b,difference,bit_equal";

    private ReplayCompare()
    {
    }

    static int run(final Path a, final Path b, final Path csv, final boolean json, final PrintWriter out)
    {
        final ReplayVocabulary vocabulary = ControlJournal.vocabulary();
        final ControlCompare.Comparison c;
        final long[] rows = new long[1];
        if (csv == null)
        {
            c = ControlCompare.compare(a, b, null);
        }
        else
        {
            try (BufferedWriter writer = Files.newBufferedWriter(csv, StandardCharsets.UTF_8))
            {
                writer.write(CSV_HEADER);
                writer.newLine();
                c = ControlCompare.compare(a, b, cycle ->
                {
                    try
                    {
                        // the torques in full (Double.toString round-trips every bit)
                        writer.write(cycle.cycle() + "," + vocabulary.stateName(cycle.stateA()) + "," +
                            vocabulary.stateName(cycle.stateB()) + "," + cycle.torqueA() + "," + cycle.torqueB() +
                            "," + (cycle.torqueA() - cycle.torqueB()) + "," + cycle.equal());
                        writer.newLine();
                        rows[0]++;
                    }
                    catch (final IOException ex)
                    {
                        throw new UncheckedIOException(ex);
                    }
                });
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        if (json)
        {
            out.println(ChildResult.pretty(result(c, vocabulary)));
        }
        else
        {
            out.print(text(c, vocabulary));
            if (csv != null)
            {
                out.printf("csv: %,d cycles written to %s%n", rows[0], csv);
            }
        }
        out.flush();
        return ExitCodes.OK;
    }

    static String text(final ControlCompare.Comparison c, final ReplayVocabulary v)
    {
        final StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "compare A %s (%s): %s%n", c.a().dir(), c.a().journal(), run(c.a())));
        s.append(String.format(Locale.ROOT, "   with B %s (%s): %s%n", c.b().dir(), c.b().journal(), run(c.b())));
        s.append(String.format(Locale.ROOT, "  cycles: %,d in both, %,d only in A, %,d only in B; states agree on " +
            "%,d%s%n", c.common(), c.onlyA(), c.onlyB(), c.statesAgree(), c.firstStateDiff() == null ? "" :
            String.format(Locale.ROOT, " (first difference: cycle %d, A %s, B %s)", c.firstStateDiff().cycle(),
                v.stateName(c.firstStateDiff().stateA()), v.stateName(c.firstStateDiff().stateB()))));
        s.append(String.format(Locale.ROOT, "  commands: %,d bit-equal, %,d differ", c.equal(), c.differing()));
        if (c.differing() > 0)
        {
            s.append(String.format(Locale.ROOT, " (max |A - B| %.6g N·m, rms %.6g N·m; first: cycle %d, A %s N·m, " +
                "B %s N·m)", c.maxDifference(), c.rmsDifference(), c.firstDiff().cycle(), c.firstDiff().torqueA(),
                c.firstDiff().torqueB()));
        }
        s.append(System.lineSeparator());
        if (c.windowFirst() < 0)
        {
            s.append("  comparable window: none (no cycle in both)").append(System.lineSeparator());
        }
        else
        {
            s.append(String.format(Locale.ROOT, "  comparable window: cycles %d..%d (until %s): %,d cycles, %,d " +
                "with both RUNNING, %,d commands differ%n", c.windowFirst(), c.windowLast(), c.windowEnd(),
                c.windowCycles(), c.windowRunning(), c.windowDiffering()));
        }
        if (c.common() > 0 && c.positionsEqual() == c.common())
        {
            s.append("  B's sensor positions are A's on every cycle in both (A's frames played back to B, open " +
                "loop): " +
                "B's tracking is A's axis against B's setpoints; judge other gains in closed loop with rfmrt replay " +
                "A --rerun --gains FILE").append(System.lineSeparator());
        }
        s.append(String.format(Locale.ROOT, "  tracking A: rms %.4e rad, max %.4e rad over %,d RUNNING cycles; in " +
            "the window %.4e rad%n", c.a().trackingRms(), c.a().trackingMax(), c.a().running(),
            c.windowTrackingRmsA()));
        s.append(String.format(Locale.ROOT, "  tracking B: rms %.4e rad, max %.4e rad over %,d RUNNING cycles; in " +
            "the window %.4e rad%n", c.b().trackingRms(), c.b().trackingMax(), c.b().running(),
            c.windowTrackingRmsB()));
        return s.toString();
    }

    private static String run(final ControlCompare.Run r)
    {
        return String.format(Locale.ROOT, "%,d cycles %d..%d (%,d RUNNING)", r.cycles(), r.firstCycle(),
            r.lastCycle(), r.running());
    }

    /**
     * @param c the comparison.
     * @param v the journals' vocabulary.
     * @return what {@code --compare --json} prints.
     */
    static Result result(final ControlCompare.Comparison c, final ReplayVocabulary v)
    {
        return new Result(RunFigures.of(c.a(), c.windowTrackingRmsA()), RunFigures.of(c.b(), c.windowTrackingRmsB()),
            c.common(), c.onlyA(), c.onlyB(), c.statesAgree(), c.positionsEqual(), Difference.of(c.firstStateDiff(), v),
            c.equal(), c.differing(), c.maxDifference(), c.rmsDifference(), Difference.of(c.firstDiff(), v),
            new CompareWindow(c.windowFirst(), c.windowLast(), c.windowEnd(), c.windowCycles(), c.windowRunning(),
            c.windowDiffering()));
    }

    /**
     * What {@code rfmrt replay A B --compare --json} prints.
     *
     * @param a                      run A.
     * @param b                      run B.
     * @param cyclesInBoth           cycles both journals hold.
     * @param cyclesOnlyInA          cycles only A holds.
     * @param cyclesOnlyInB          cycles only B holds.
     * @param statesAgree            cycles in both whose drive states agree.
     * @param positionsEqual         cycles in both whose sensor positions are equal.
     * @param firstStateDifference   the first cycle whose states differ, or null.
     * @param commandsBitEqual       cycles whose torque commands are equal in every bit.
     * @param commandsDiffer         cycles whose torque commands differ.
     * @param maxDifferenceNm        the largest |A - B|, N·m.
     * @param rmsDifferenceNm        the rms of A - B, N·m.
     * @param firstCommandDifference the first cycle whose commands differ, or null.
     * @param window                 the comparable window.
     */
    record Result(RunFigures a, RunFigures b, long cyclesInBoth, long cyclesOnlyInA, long cyclesOnlyInB,
        long statesAgree, long positionsEqual, Difference firstStateDifference, long commandsBitEqual,
        long commandsDiffer, double maxDifferenceNm, double rmsDifferenceNm, Difference firstCommandDifference,
        CompareWindow window)
    {
    }

    /**
     * One run's figures.
     *
     * @param dir               its folder.
     * @param journal           the controller's journal in it.
     * @param cycles            control cycles.
     * @param firstCycle        the first one.
     * @param lastCycle         the last one.
     * @param running           of them, RUNNING.
     * @param trackingRms       tracking error rms over the RUNNING cycles, rad.
     * @param trackingMax       its largest, rad.
     * @param windowTrackingRms tracking error rms in the comparable window, rad.
     */
    record RunFigures(String dir, String journal, long cycles, long firstCycle, long lastCycle, long running,
        double trackingRms, double trackingMax, double windowTrackingRms)
    {
        static RunFigures of(final ControlCompare.Run r, final double windowRms)
        {
            return new RunFigures(r.dir().toString(), r.journal(), r.cycles(), r.firstCycle(), r.lastCycle(),
                r.running(), r.trackingRms(), r.trackingMax(), windowRms);
        }
    }

    /**
     * A cycle where the runs differ.
     *
     * @param cycle   its number.
     * @param stateA  A's drive state.
     * @param stateB  B's drive state.
     * @param torqueA A's command, N·m.
     * @param torqueB B's command, N·m.
     */
    record Difference(long cycle, String stateA, String stateB, double torqueA, double torqueB)
    {
        static Difference of(final ControlCompare.Cycle c, final ReplayVocabulary v)
        {
            return c == null ? null : new Difference(c.cycle(), v.stateName(c.stateA()), v.stateName(c.stateB()),
                c.torqueA(), c.torqueB());
        }
    }

    /**
     * The comparable window: the cycles in both, up to where one run ends or stops running.
     *
     * @param firstCycle     its first cycle, -1 for none.
     * @param lastCycle      its last cycle.
     * @param until          what ends it.
     * @param cycles         its cycles.
     * @param bothRunning    of them, RUNNING in both.
     * @param commandsDiffer of them, commands that differ.
     */
    record CompareWindow(long firstCycle, long lastCycle, String until, long cycles, long bothRunning,
        long commandsDiffer)
    {
    }
}
