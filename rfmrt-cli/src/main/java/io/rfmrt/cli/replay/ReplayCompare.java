package io.rfmrt.cli.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
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
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

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
        final Map<String, Object> map = toMap(c, vocabulary);
        if (json)
        {
            try
            {
                out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(map));
            }
            catch (final com.fasterxml.jackson.core.JsonProcessingException ex)
            {
                throw new IllegalStateException("cannot write JSON: " + ex.getMessage(), ex);
            }
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

    static Map<String, Object> toMap(final ControlCompare.Comparison c, final ReplayVocabulary v)
    {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", run(c.a(), c.windowTrackingRmsA()));
        m.put("b", run(c.b(), c.windowTrackingRmsB()));
        m.put("cycles_in_both", c.common());
        m.put("cycles_only_in_a", c.onlyA());
        m.put("cycles_only_in_b", c.onlyB());
        m.put("states_agree", c.statesAgree());
        m.put("positions_equal", c.positionsEqual());
        m.put("first_state_difference", cycle(c.firstStateDiff(), v));
        m.put("commands_bit_equal", c.equal());
        m.put("commands_differ", c.differing());
        m.put("max_difference_nm", c.maxDifference());
        m.put("rms_difference_nm", c.rmsDifference());
        m.put("first_command_difference", cycle(c.firstDiff(), v));
        final Map<String, Object> window = new LinkedHashMap<>();
        window.put("first_cycle", c.windowFirst());
        window.put("last_cycle", c.windowLast());
        window.put("until", c.windowEnd());
        window.put("cycles", c.windowCycles());
        window.put("both_running", c.windowRunning());
        window.put("commands_differ", c.windowDiffering());
        m.put("window", window);
        return m;
    }

    private static Map<String, Object> run(final ControlCompare.Run r, final double windowRms)
    {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("dir", r.dir().toString());
        m.put("journal", r.journal());
        m.put("cycles", r.cycles());
        m.put("first_cycle", r.firstCycle());
        m.put("last_cycle", r.lastCycle());
        m.put("running", r.running());
        m.put("tracking_rms", r.trackingRms());
        m.put("tracking_max", r.trackingMax());
        m.put("window_tracking_rms", windowRms);
        return m;
    }

    private static Map<String, Object> cycle(final ControlCompare.Cycle c, final ReplayVocabulary v)
    {
        if (c == null)
        {
            return null;
        }
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("cycle", c.cycle());
        m.put("state_a", v.stateName(c.stateA()));
        m.put("state_b", v.stateName(c.stateB()));
        m.put("torque_a", c.torqueA());
        m.put("torque_b", c.torqueB());
        return m;
    }
}
