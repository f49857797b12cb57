package io.rfmrt.runtime.preflight;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CpuSetTest
{
    private static final CpuSet EIGHT = CpuSet.parseList("0-7", CpuSet.EMPTY);

    @Test
    void shouldParseAndWriteCpuLists()
    {
        assertThat(CpuSet.parseList("0-3,6", EIGHT)).hasToString("0-3,6");
        assertThat(CpuSet.parseList(" 6,0,1,2,3 \n", EIGHT)).hasToString("0-3,6");
        assertThat(CpuSet.parseList("", EIGHT).isEmpty()).isTrue();
        assertThat(CpuSet.parseList("5", EIGHT).size()).isEqualTo(1);
    }

    @Test
    void shouldParseTheBootCommandLineForms()
    {
        assertThat(CpuSet.parseList("all", EIGHT)).isEqualTo(EIGHT);
        assertThat(CpuSet.parseList("2-N", EIGHT)).hasToString("2-7");
        assertThat(CpuSet.parseList("0-7:2/4", EIGHT)).hasToString("0-1,4-5");
    }

    @ParameterizedTest
    @ValueSource(strings = {"3-1", "x", "1,,2", "-1", "0-7:3/2", "0-7:1", "2-N"})
    void shouldRefuseWhatIsNotACpuList(final String list)
    {
        assertThatThrownBy(() -> CpuSet.parseList(list, CpuSet.EMPTY)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("cpu list '" + list + "'");
    }

    @Test
    void shouldParseMasksInThirtyTwoBitWords()
    {
        assertThat(CpuSet.parseMask("ff\n")).hasToString("0-7");
        assertThat(CpuSet.parseMask("0c")).hasToString("2-3");
        assertThat(CpuSet.parseMask("00000001,00000000")).hasToString("32");
        assertThat(CpuSet.parseMask("f0,0000000f")).hasToString("0-3,36-39");
        assertThatThrownBy(() -> CpuSet.parseMask("zz")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CpuSet.parseMask("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCombineSets()
    {
        final CpuSet isolated = CpuSet.parseList("2-7", EIGHT);
        final CpuSet nohz = CpuSet.parseList("2-5", EIGHT);

        assertThat(isolated.minus(nohz)).hasToString("6-7");
        assertThat(isolated.containsAll(nohz)).isTrue();
        assertThat(nohz.containsAll(isolated)).isFalse();
        assertThat(nohz.or(CpuSet.of(0))).hasToString("0,2-5");
        assertThat(isolated.and(CpuSet.of(1, 2))).hasToString("2");
        assertThat(isolated.intersects(CpuSet.of(0, 1))).isFalse();
        assertThat(isolated.contains(7)).isTrue();
    }
}
