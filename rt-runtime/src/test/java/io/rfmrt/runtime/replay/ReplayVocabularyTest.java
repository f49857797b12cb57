package io.rfmrt.runtime.replay;

import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The registry of what journal codes mean: the runtime's own, an application's added to it, and clear refusals when
 * two registrations disagree.
 */
class ReplayVocabularyTest
{
    @Test
    void shouldNameTheRuntimeCodesAndFallBackToNumbers()
    {
        final ReplayVocabulary vocabulary = ReplayVocabulary.runtime();
        assertThat(vocabulary.faultName(JournalCodes.frameFaultCode(FrameStatus.TORN))).isEqualTo("TORN");
        assertThat(vocabulary.faultName(JournalCodes.frameFaultCode(FrameStatus.CRC_ERROR))).isEqualTo("CRC_ERROR");
        assertThat(vocabulary.faultName(JournalCodes.FAULT_THREAD_FAILED)).isEqualTo("THREAD_FAILED");
        assertThat(vocabulary.faultName(JournalCodes.FAULT_PUBLISHER_RESTART)).isEqualTo("PUBLISHER_RESTART");
        // OK is no fault: code 0 is not registered
        assertThat(vocabulary.faults()).doesNotContainKey(0);
        assertThat(vocabulary.faultName(0)).isEqualTo("code 0");
        assertThat(vocabulary.faultName(100)).isEqualTo("code 100");
        assertThat(vocabulary.stateName(2)).isEqualTo("state 2");
        assertThat(vocabulary.sampleName(1)).isEqualTo("sample 1");
        assertThat(vocabulary.sample(1)).isNull();
        assertThat(new ReplayVocabulary().faultName(1)).isEqualTo("code 1");
    }

    @Test
    void shouldNameWhatAnApplicationRegisters()
    {
        final ReplayVocabulary vocabulary = ReplayVocabulary.runtime()
            .fault(200, "OVERHEAT")
            .state(0, "IDLE").state(1, "HEATING")
            .sample(7, "THERMAL", "temperature", "duty");
        assertThat(vocabulary.faultName(200)).isEqualTo("OVERHEAT");
        assertThat(vocabulary.stateName(1)).isEqualTo("HEATING");
        assertThat(vocabulary.sampleName(7)).isEqualTo("THERMAL");
        assertThat(vocabulary.sample(7).values()).containsExactly("temperature", "duty");
        assertThat(vocabulary.valueIndex(7, "duty")).isEqualTo(1);
        assertThat(vocabulary.sample(7).index("pressure")).isEqualTo(-1);
        // the same registration again is fine
        vocabulary.fault(200, "OVERHEAT").state(1, "HEATING").sample(7, "THERMAL", "temperature", "duty");
        assertThat(vocabulary.faults()).containsEntry(200, "OVERHEAT");
    }

    @Test
    void shouldRefuseDisagreeingOrBadRegistrations()
    {
        final ReplayVocabulary vocabulary = ReplayVocabulary.runtime().sample(7, "THERMAL", "temperature", "duty");
        assertThatThrownBy(() -> vocabulary.fault(JournalCodes.FAULT_THREAD_FAILED, "MINE"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("fault code 102 is registered as THREAD_FAILED; cannot register it as MINE");
        vocabulary.state(3, "DONE");
        assertThatThrownBy(() -> vocabulary.state(3, "FINISHED")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("state id 3 is registered as DONE");
        assertThatThrownBy(() -> vocabulary.sample(7, "THERMAL", "temperature"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("sample kind 7 is registered as THERMAL [temperature, duty]");
        assertThatThrownBy(() -> vocabulary.sample(8, "X", "a", "b", "c", "d", "e", "f", "g"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("7 value names; a SAMPLE record holds " + JournalRecord.SAMPLE_VALUES);
        assertThatThrownBy(() -> vocabulary.sample(8, "X", "a", "a")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("value name 'a' given twice");
        assertThatThrownBy(() -> vocabulary.fault(300, " ")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("must not be blank");
        assertThatThrownBy(() -> vocabulary.valueIndex(7, "pressure")).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("sample kind 7 (THERMAL) has no value 'pressure'; its values are [temperature, duty]");
        assertThatThrownBy(() -> vocabulary.valueIndex(9, "x")).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("sample kind 9 is not registered");
        // a refused registration leaves the vocabulary as it was
        assertThat(vocabulary.sample(8)).isNull();
        assertThat(vocabulary.faults()).doesNotContainKey(300);
    }
}
