package io.rfmrt.cli.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.control.node.NodeResults.ControllerResult;
import io.rfmrt.control.node.NodeResults.PlantResult;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's summary records, written by Jackson: summary.json's names and order, the stall figures at the top level,
 * the plant's figures without what went into them, and the controller-only table naming every figure.
 */
class DemoSummaryTest
{
    /** Two stalls, one deadline miss inside the controller's, one watchdog trip inside the plant's. */
    private static final String CONTROLLER = """
        result {"cycles": 1000, "deadline_us": 500.0, "move_distance": 2.0, "tracking_rms_moves": 0.01,
         "miss_from": [1000], "miss_to": [1100], "miss_wake": [0], "miss_off_cpu": [0], "trip_from": [5000],
         "trip_to": [5100], "stall_start": [900], "stall_end": [1200],
         "lateness": {"stalls": 1, "longest_stall_us": 0.3}, "watchdog_timer_lateness": {"stalls": 0},
         "loop": {"cycles": 1000}, "threads_after_warmup": []}""".replace("\n", "");
    private static final String PLANT = """
        result {"cycles": 1000, "stall_start": [4000], "stall_end": [6000], "lateness": {"stalls": 1,
         "longest_stall_us": 2.0}, "loop": {"cycles": 1000}, "late_commands_by_periods": [0, 0, 0, 0, 0]}"""
        .replace("\n", "");

    @Test
    void shouldWriteTheSummaryUnderItsDocumentedNamesInOrder() throws Exception
    {
        final ControllerResult c = ChildResult.read(CONTROLLER, ControllerResult.class);
        final PlantResult p = ChildResult.read(PLANT, PlantResult.class);
        final DemoSummary summary = DemoSummary.of(c, p, new DemoSummary.Run("no", 1000, 1, "none", "ideal",
            "standard", "inline", null, new DemoSummary.Journals("j/controller", "j/plant")), List.of());

        final JsonNode json = ChildResult.MAPPER.readTree(ChildResult.MAPPER.writeValueAsString(summary));
        final List<String> names = new ArrayList<>();
        json.fieldNames().forEachRemaining(names::add);

        assertThat(names).startsWith("cycles", "lost_frames", "deadline_misses", "watchdog_trips",
            "watchdog_recoveries", "misses_matched", "misses_late_wake", "misses_preempted", "misses_unexplained",
            "misses_unchecked", "trips_matched", "trips_unexplained", "trips_unchecked", "stalls",
            "longest_stall_us", "lateness", "lost_frame_causes");
        assertThat(names).endsWith("tracking_rms_pct_of_move", "interrupted", "rate_hz", "seconds", "fault",
            "plant_model", "profile", "wait", "plant", "journals", "plots");
        assertThat(names).as("hosts only with --hosts").doesNotContain("hosts", "stalls_", "waitMode");
        assertThat(json.get("misses_matched").asLong()).isEqualTo(1);
        assertThat(json.get("trips_matched").asLong()).isEqualTo(1);
        assertThat(json.get("stalls").asLong()).isEqualTo(2);
        assertThat(json.get("longest_stall_us").asDouble()).isEqualTo(2.0);
        assertThat(json.get("lateness").fieldNames()).toIterable()
            .containsExactly("plant", "controller", "watchdog_timer");
        assertThat(json.get("tracking_rms_pct_of_move").asDouble()).isEqualTo(0.5);
        assertThat(json.get("plant").has("cycles")).isTrue();
        assertThat(json.get("plant").has("stall_start")).as("the plant's stalls went into the matching").isFalse();
        assertThat(json.get("plant").has("stall_end")).isFalse();
        assertThat(json.get("plant").has("loop")).as("the plant's loop is plant_loop").isFalse();
        assertThat(json.get("plant_loop").get("cycles").asLong()).isEqualTo(1000);
        assertThat(json.get("journals").get("plant").asText()).isEqualTo("j/plant");
    }

    @Test
    void shouldPrintEveryFigureOfTheControllerOnlySummary() throws Exception
    {
        final ControllerResult c = ChildResult.read(CONTROLLER, ControllerResult.class);
        final DemoControllerOnly.Summary summary = DemoControllerOnly.Summary.of(c, 1000, null, Path.of("j"));
        final List<String> names = new ArrayList<>();
        ChildResult.MAPPER.valueToTree(summary).fieldNames().forEachRemaining(names::add);

        assertThat(Arrays.stream(DemoControllerOnly.TABLE).map(row -> row[0]).toList())
            .containsExactlyElementsOf(names);
    }
}
