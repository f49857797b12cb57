package io.rfmrt.runtime.threads;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    @ValueSource(strings = {"3-1", "x", "1,,2", "-1", "0-7:3/2", "0-7:1", "2-N", "1,", "+1"})
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

    @Test
    void shouldAgreeWithTheTuningScriptsOnEveryCaseOfTheSharedFixture() throws IOException
    {
        // the same file tuning/test/cpu-lists.bats feeds to the scripts' cpulist_expand
        final Path fixture = Path.of("..", "tuning", "test", "fixtures", "cpu-lists.txt");
        final Pattern line = Pattern.compile("^\"([^\"]*)\"\\s+(?:\"([^\"]*)\"|(error))$");
        final List<String> failures = new ArrayList<>();
        int cases = 0;
        for (final String text : Files.readAllLines(fixture, StandardCharsets.UTF_8))
        {
            if (text.isBlank() || text.startsWith("#"))
            {
                continue;
            }
            final Matcher m = line.matcher(text);
            assertThat(m.matches()).as("fixture line %s", text).isTrue();
            cases++;
            final String input = m.group(1);
            if (m.group(3) != null)
            {
                try
                {
                    failures.add("'" + input + "' accepted as '" + CpuSet.parse(input) + "', expected an error");
                }
                catch (final IllegalArgumentException ex)
                {
                    if (!ex.getMessage().contains("'" + input + "'"))
                    {
                        failures.add("'" + input + "': message '" + ex.getMessage() + "' does not quote the list");
                    }
                }
            }
            else
            {
                try
                {
                    final String got = CpuSet.parse(input).toString();
                    if (!got.equals(m.group(2)))
                    {
                        failures.add("'" + input + "': got '" + got + "', expected '" + m.group(2) + "'");
                    }
                }
                catch (final IllegalArgumentException ex)
                {
                    failures.add("'" + input + "' refused (" + ex.getMessage() + "), expected '" + m.group(2) + "'");
                }
            }
        }
        assertThat(cases).isGreaterThan(20);
        assertThat(failures).isEmpty();
    }

    @Test
    void shouldReadTheKernelsNullMaskAsNoCpus()
    {
        assertThat(CpuSet.parse("(null)\n").isEmpty()).isTrue();
        assertThat(CpuSet.parseList(" (null) ", EIGHT)).isEqualTo(CpuSet.EMPTY);
    }

    @Test
    void shouldConvertToAndFromListsAndBitSets()
    {
        final BitSet bits = new BitSet();
        bits.set(3);
        bits.set(1);
        final CpuSet set = CpuSet.of(bits);
        bits.set(9);

        assertThat(set.toList()).containsExactly(1, 3);
        assertThat(set.toBitSet().cardinality()).isEqualTo(2);
        assertThat(CpuSet.of(List.of(5, 4, 4))).hasToString("4-5");
        assertThat(set.first()).isEqualTo(1);
        assertThat(CpuSet.EMPTY.first()).isEqualTo(-1);
        assertThat(CpuSet.range(2, 4).without(3)).hasToString("2,4");
        assertThat(CpuSet.range(4, 2).isEmpty()).isTrue();
        assertThat(set.contains(-1)).isFalse();
        assertThatThrownBy(() -> CpuSet.of(-1)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("cpu -1");
    }
}
