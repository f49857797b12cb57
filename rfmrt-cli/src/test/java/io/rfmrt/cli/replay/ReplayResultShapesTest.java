package io.rfmrt.cli.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.replay.ControlCompare;
import io.rfmrt.control.replay.ControlRerun;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replay results are records written by the CLI's mapper: {@code --rerun}, {@code --compare} and
 * {@code --play} keep the names, the order and the optional parts they had when they were built as maps.
 */
class ReplayResultShapesTest
{
    @Test
    void shouldWriteTheFirstDivergenceAndTheWhatIfFiguresOnlyWhenThereAreAny()
    {
        final ReplayCommand.Rerun same = ReplayCommand.Rerun.of("recorded", null,
            new ControlRerun.Comparison(100, 90, 80, 0, -1, 0.0, 0.0));
        assertThat(tree(same).fieldNames()).toIterable().containsExactly("gains", "cycles", "compared", "running",
            "divergences");

        final ReplayCommand.Rerun law = ReplayCommand.Rerun.of("recorded", "cascaded-pid",
            new ControlRerun.Comparison(100, 90, 80, 2, 17, 0.5, 0.25));
        assertThat(tree(law).fieldNames()).toIterable().containsExactly("gains", "law", "cycles", "compared",
            "running", "divergences", "first_divergence_cycle", "first_divergence_recorded",
            "first_divergence_rerun");
        assertThat(tree(law).get("first_divergence_cycle").asLong()).isEqualTo(17);

        final ReplayCommand.Rerun whatIf = ReplayCommand.Rerun.of("what-if", null,
            new ControlRerun.Comparison(100, 90, 80, 0, -1, 0.0, 0.0))
            .withWhatIf(new ControlRerun.Tracking(80, 1e-3, 2e-3), new ControlRerun.Tracking(80, 3e-3, 4e-3));
        assertThat(tree(whatIf).fieldNames()).toIterable().containsExactly("gains", "cycles", "compared", "running",
            "divergences", "recorded_gains_tracking_rms", "recorded_gains_tracking_max", "new_gains_tracking_rms",
            "new_gains_tracking_max");
        assertThat(tree(whatIf).get("new_gains_tracking_max").asDouble()).isEqualTo(4e-3);
    }

    @Test
    void shouldWriteAComparisonWithBothRunsAndItsWindow()
    {
        final ControlCompare.Run a = new ControlCompare.Run(Path.of("a"), "controller", 10, 1, 10, 8, 1e-3, 2e-3);
        final ControlCompare.Comparison c = new ControlCompare.Comparison(a, a, 10, 0, 0, 10, 10, null, 9, 1, 0.5,
            0.1, new ControlCompare.Cycle(4, 2, 2, 1.0, 1.5), 1, 10, "the end of both", 10, 8, 1, 1e-3, 1e-3);
        final JsonNode result = tree(ReplayCompare.result(c, ControlJournal.vocabulary()));
        assertThat(result.fieldNames()).toIterable().containsExactly("a", "b", "cycles_in_both", "cycles_only_in_a",
            "cycles_only_in_b", "states_agree", "positions_equal", "first_state_difference", "commands_bit_equal",
            "commands_differ", "max_difference_nm", "rms_difference_nm", "first_command_difference", "window");
        assertThat(result.get("a").fieldNames()).toIterable().containsExactly("dir", "journal", "cycles",
            "first_cycle", "last_cycle", "running", "tracking_rms", "tracking_max", "window_tracking_rms");
        assertThat(result.get("first_state_difference").isNull()).isTrue();
        assertThat(result.get("first_command_difference").fieldNames()).toIterable().containsExactly("cycle",
            "state_a", "state_b", "torque_a", "torque_b");
        assertThat(result.get("window").fieldNames()).toIterable().containsExactly("first_cycle", "last_cycle",
            "until", "cycles", "both_running", "commands_differ");
    }

    @Test
    void shouldWriteAPlaybackAtARateWithItsTimingErrorAndAtTheMaximumRateWithItsReceivers()
    {
        final ReplayPlay.PlaySummary timed = new ReplayPlay.PlaySummary(10, 10, 1, 1.0, 1.0, 1.0, 0.0, 9.0, 1.0, 2.0,
            3.0, null, null, 0, false, "no", false);
        assertThat(tree(timed).fieldNames()).toIterable().containsExactly("frames", "frames_recorded", "loops",
            "speed", "duration_s", "recorded_span_s", "paused_s", "frames_per_s", "timing_error_p50_us",
            "timing_error_p99_us", "timing_error_max_us", "send_failures", "renumbered", "interrupted", "stalled");
        assertThat(tree(timed).get("speed").asDouble()).isEqualTo(1.0);

        final ReplayPlay.PlaySummary max = new ReplayPlay.PlaySummary(10, 10, 1, "max", 0.1, 1.0, 0.0, 90.0, null, null,
            null, List.of(2), 4L, 0, false, "SIGINT", false);
        assertThat(tree(max).fieldNames()).toIterable().containsExactly("frames", "frames_recorded", "loops", "speed",
            "duration_s", "recorded_span_s", "paused_s", "frames_per_s", "receivers", "receiver_waits",
            "send_failures", "renumbered", "interrupted", "stalled");
        assertThat(tree(max).get("speed").asText()).isEqualTo("max");
    }

    private static JsonNode tree(final Object record)
    {
        return ChildResult.MAPPER.valueToTree(record);
    }
}
