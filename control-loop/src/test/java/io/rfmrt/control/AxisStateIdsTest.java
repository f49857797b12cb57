package io.rfmrt.control;

import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.runtime.replay.ReplayVocabulary;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ids of the axis states, which go on the wire (command frames) and into journals (STATE records, SAMPLE state):
 * pinned, so that renumbering fails here.
 */
class AxisStateIdsTest
{
    @Test
    void shouldKeepTheIds()
    {
        final Map<String, Integer> actual = new LinkedHashMap<>();
        for (final AxisState state : AxisState.values())
        {
            actual.put(state.name(), state.id());
            assertThat(AxisState.fromId(state.id())).isSameAs(state);
        }
        assertThat(actual).containsExactlyInAnyOrderEntriesOf(Map.of(
            "STARTING", 0, "RUNNING", 1, "SAFE", 2, "RECOVERING", 3, "FAULT", 4));
        assertThat(AxisState.fromId(5)).isNull();
        assertThat(AxisState.fromId(-1)).isNull();
        // a replay names the states by these ids
        final ReplayVocabulary vocabulary = ControlJournal.register(ReplayVocabulary.runtime());
        assertThat(vocabulary.stateName(AxisState.SAFE.id())).isEqualTo("SAFE");
        assertThat(vocabulary.stateName(AxisState.RECOVERING.id())).isEqualTo("RECOVERING");
        assertThat(vocabulary.stateName(AxisState.FAULT.id())).isEqualTo("FAULT");
    }
}
