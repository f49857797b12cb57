package io.rfmrt.rfm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnitsTest
{
    @ParameterizedTest
    @CsvSource({
        "4096, 4096", "64k, 65536", "64K, 65536", "16M, 16777216", "1g, 1073741824",
        "16MiB, 16777216", "16mib, 16777216", "64KB, 65536", "2GB, 2147483648", "0x1000, 4096", "0X10, 16",
        "1_024, 1024", "'16 M', 16777216", "' 8K ', 8192", "0, 0"})
    void shouldReadAgronaSizesAndTheDocumentedFormsOnTop(final String text, final long bytes)
    {
        assertThat(Units.parseSize(text)).isEqualTo(bytes);
        assertThat(Sizes.parseSize(text)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "-1", "1.5M", "16T", "0x", "0xfffffffffffffffff", "9999999999G", "K", "0x10K",
        "0xFFFFFFFFFFFFFFFF"})
    void shouldRefuseWhatIsNotASizeNamingIt(final String text)
    {
        assertThatThrownBy(() -> Units.parseSize(text)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("size '" + text + "' is not a number of bytes (e.g. 4096, 64K, 16M)");
    }

    @ParameterizedTest
    @CsvSource({
        "250ms, 250000000", "5s, 5000000000", "5S, 5000000000", "100us, 100000", "100µs, 100000", "7ns, 7",
        "1.5s, 1500000000", "2m, 120000000000", "1.5m, 90000000000", "1h, 3600000000000", "2.5, 2500000000",
        "10, 10000000000", "0, 0", "'500 ms', 500000000", ".5s, 500000000"})
    void shouldReadAgronaDurationsAndTheDocumentedFormsOnTop(final String text, final long nanos)
    {
        assertThat(Units.parseDuration(text, TimeUnit.SECONDS)).isEqualTo(nanos);
    }

    @Test
    void shouldReadABareNumberInTheCallersUnit()
    {
        assertThat(Units.parseDuration("10", TimeUnit.NANOSECONDS)).isEqualTo(10);
        assertThat(Units.parseDuration("10", TimeUnit.MILLISECONDS)).isEqualTo(10_000_000);
    }

    @Test
    void shouldSaturateWhatALongCannotHold()
    {
        assertThat(Units.parseDuration("99999999999999999999s", TimeUnit.SECONDS)).isEqualTo(Long.MAX_VALUE);
        assertThat(Units.parseDuration("1e30h", TimeUnit.SECONDS)).isEqualTo(Long.MAX_VALUE);
        assertThat(Units.parseDuration("1e300s", TimeUnit.SECONDS)).as("past the range of a double in ns").isEqualTo(Long.MAX_VALUE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "5x", "s", "ms", "1e400s", "NaN", "Infinity", "5d", "5f", "+5s", "--5s"})
    void shouldRefuseWhatIsNotADurationNamingIt(final String text)
    {
        assertThatThrownBy(() -> Units.parseDuration(text, TimeUnit.SECONDS))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("'" + text + "' is not a duration (e.g. 500ms, 5s, 2m)");
    }

    @Test
    void shouldSayANegativeDurationIsNegative()
    {
        assertThatThrownBy(() -> Units.parseDuration("-5s", TimeUnit.SECONDS))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("duration '-5s' is negative");
    }
}
