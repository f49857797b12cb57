package io.rfmrt.cli.common;

import io.rfmrt.rfm.RfmDevice;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConvertersTest
{
    private final Converters.Duration duration = new Converters.Duration();
    private final Converters.Size size = new Converters.Size();

    @Test
    void shouldReadDurationsWithUnitsAndBareSeconds()
    {
        assertThat(duration.convert("250ms")).isEqualTo(250_000_000L);
        assertThat(duration.convert("5")).isEqualTo(5_000_000_000L);
        assertThat(duration.convert("2m")).isEqualTo(120_000_000_000L);
        assertThat(duration.convert("100us")).isEqualTo(100_000L);
        assertThat(duration.convert("1.5s")).isEqualTo(1_500_000_000L);
        assertThat(duration.convert("inf")).isEqualTo(RfmDevice.INFINITE_TIMEOUT);
    }

    @Test
    void shouldNameTheBadDurationInOneLine()
    {
        assertThatThrownBy(() -> duration.convert("soon")).isInstanceOf(CommandLine.TypeConversionException.class)
            .hasMessage("'soon' is not a duration (e.g. 500ms, 5s, 2m, inf)");
        assertThatThrownBy(() -> duration.convert("-5s")).isInstanceOf(CommandLine.TypeConversionException.class)
            .hasMessage("duration '-5s' is negative");
        assertThatThrownBy(() -> duration.convert("200y")).isInstanceOf(CommandLine.TypeConversionException.class)
            .hasMessage("'200y' is not a duration (e.g. 500ms, 5s, 2m, inf)");
        assertThatThrownBy(() -> duration.convert("1000000h")).isInstanceOf(CommandLine.TypeConversionException.class)
            .hasMessage("duration '1000000h' is longer than 100 years (use inf to wait forever)");
    }

    @Test
    void shouldReadSizesAndNameABadOne()
    {
        assertThat(size.convert("16MiB")).isEqualTo(16L << 20);
        assertThat(size.convert("0x1000")).isEqualTo(4096L);
        assertThat(size.convert("64K")).isEqualTo(65536L);
        assertThatThrownBy(() -> size.convert("lots")).isInstanceOf(CommandLine.TypeConversionException.class)
            .hasMessage("size 'lots' is not a number of bytes (e.g. 4096, 64K, 16M)");
    }
}
