package io.rfmrt.runtime.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Defaults, validation messages that name the field, and folders that cannot hold a journal.
 */
class JournalConfigTest
{
    @TempDir
    Path temp;

    @Test
    void shouldHaveDefaults()
    {
        final JournalConfig config = JournalConfig.of(temp, 3);
        assertThat(config.dir()).isEqualTo(temp);
        assertThat(config.nodeId()).isEqualTo(3);
        assertThat(config.ringCapacityBytes()).isEqualTo(1 << 20);
        assertThat(config.rollCycle()).isEqualTo("HOURLY");
        assertThat(config.cpu()).isEqualTo(-1);
        assertThat(config.validate()).isSameAs(config);
        assertThat(config.withRollCycle("fast_hourly").validate().rollCycle()).isEqualTo("fast_hourly");
        assertThat(config.withRingCapacityBytes(4096).withCpu(1).validate())
            .isEqualTo(new JournalConfig(temp, 3, 4096, "HOURLY", 1));
    }

    @Test
    void shouldNameTheBadFieldAndValue()
    {
        final JournalConfig config = JournalConfig.of(temp, 3);
        assertThatThrownBy(() -> JournalConfig.of(null, 1).validate()).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("journal dir must be set (was null)");
        assertThatThrownBy(() -> JournalConfig.of(temp, -2).validate()).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("journal nodeId -2 is not in 0-65535");
        assertThatThrownBy(() -> config.withRingCapacityBytes(5000).validate())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("journal ringCapacityBytes 5000 is not a power of two from 4096 to 1073741824");
        assertThatThrownBy(() -> config.withRingCapacityBytes(2048).validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ringCapacityBytes 2048");
        assertThatThrownBy(() -> config.withRollCycle("FORTNIGHTLY").validate())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("journal rollCycle FORTNIGHTLY is not one of [")
            .hasMessageContaining("HOURLY").hasMessageContaining("MINUTELY").hasMessageContaining("DAILY");
        assertThatThrownBy(() -> config.withRollCycle(null).validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("journal rollCycle null");
        assertThatThrownBy(() -> config.withCpu(-3).validate()).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("journal cpu -3 is not a cpu number (or -1 for unpinned)");
        assertThatThrownBy(() -> Journal.start(config.withCpu(-3))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldFailToStartInAFileNamingIt() throws IOException
    {
        final Path file = Files.writeString(temp.resolve("plain-file"), "not a folder");
        assertThatThrownBy(() -> Journal.start(JournalConfig.of(file, 1)))
            .isInstanceOf(JournalException.class)
            .hasMessage("journal dir " + file + " is not a folder");

        final Path below = file.resolve("journal");
        assertThatThrownBy(() -> Journal.start(JournalConfig.of(below, 1)))
            .isInstanceOf(JournalException.class)
            .hasMessageStartingWith("journal dir " + below + ": ")
            .hasMessageEndingWith(file + " is not a folder");
    }

    @Test
    void shouldFailToStartWhereChronicleCannotOpenAQueue() throws IOException
    {
        // a folder named like the queue's metadata file: Chronicle cannot create its table store
        final Path dir = temp.resolve("journal");
        Files.createDirectories(dir.resolve("metadata.cq4t"));
        assertThatThrownBy(() -> Journal.start(JournalConfig.of(dir, 1)))
            .isInstanceOf(JournalException.class)
            .hasMessageStartingWith("cannot open a journal in " + dir + ": ")
            .matches(ex -> !ex.getMessage().contains("\n"), "one line");
    }
}
