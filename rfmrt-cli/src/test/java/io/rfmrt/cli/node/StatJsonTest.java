package io.rfmrt.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.runtime.counters.CountersSnapshot;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt stat --json}: one object per reading with the names and the order it had when it was built as maps
 * (docs/metrics.md and scripts read them): the time, each node's file with its counters and distinct errors, and the
 * files that could not be read.
 */
class StatJsonTest
{
    @Test
    void shouldWriteAReadingWithItsNodesCountersAndErrorsByTheirNames() throws Exception
    {
        final CountersSnapshot snapshot = new CountersSnapshot(Path.of("/dev/shm/rfmrt/lab1/node-2.counters"), 2,
            4_321, true, 1_700_000_000_000L, "sim:lab1?node=2", 1,
            List.of(new CountersSnapshot.Counter(1, 100, "frames handled", 42)),
            List.of(new CountersSnapshot.DistinctError(3, 1_700_000_000_100L, 1_700_000_000_900L, "boom")));
        final long before = System.currentTimeMillis();
        final JsonNode reading = new ObjectMapper().readTree(StatCommand.json(List.of(snapshot),
            List.of("node-3.counters: not a counters file")));

        assertThat(reading.fieldNames()).toIterable().containsExactly("time_ms", "nodes", "unreadable");
        assertThat(reading.get("time_ms").asLong()).isGreaterThanOrEqualTo(before);
        final JsonNode node = reading.get("nodes").get(0);
        assertThat(node.fieldNames()).toIterable().containsExactly("network", "node", "pid", "alive", "device",
            "start_ms", "channels", "counters", "errors");
        assertThat(node.get("network").asText()).isEqualTo("lab1");
        assertThat(node.get("pid").asLong()).isEqualTo(4_321);
        final JsonNode counter = node.get("counters").get(0);
        assertThat(counter.fieldNames()).toIterable().containsExactly("id", "type", "label", "value");
        assertThat(counter.get("type").asInt()).isEqualTo(100);
        assertThat(counter.get("value").asLong()).isEqualTo(42);
        final JsonNode error = node.get("errors").get(0);
        assertThat(error.fieldNames()).toIterable().containsExactly("count", "first_ms", "last_ms", "text");
        assertThat(error.get("text").asText()).isEqualTo("boom");
        assertThat(reading.get("unreadable").get(0).asText()).isEqualTo("node-3.counters: not a counters file");
    }
}
