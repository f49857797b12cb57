package io.rfmrt.runtime;

import io.rfmrt.runtime.config.NodeConfig;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two nodes whose configurations give one {@code journal.dir} (two files in one folder, both with the default
 * {@code journal}): the second is refused at its start, before it makes anything, naming the folder and the first
 * one's pid; their records never interleave in one queue. A folder whose journal has closed is free again.
 */
class SharedJournalFolderTest
{
    @TempDir
    Path dir;

    private Path root;

    @BeforeEach
    void setUp() throws IOException
    {
        root = SimRoot.use("rfmrt-shared-journal-test-");
        Files.writeString(dir.resolve("layout.yaml"), """
            memorySize: 1M
            channels:
              - {name: sensor,  node: 1, offset: 0x10000, slots: 16, slotSize: 128, event: INTR1, to: 2}
            """);
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
    }

    private NodeContext config(final String file, final String network, final int node) throws IOException
    {
        Files.writeString(dir.resolve(file), """
            device: sim:%s?node=%d&size=1M
            layout: layout.yaml
            threads: {lockMemory: false}
            heartbeat: 0
            """.formatted(network, node));
        return NodeConfig.load(dir.resolve(file), null);
    }

    @Test
    void shouldRefuseASecondNodeJournalingToTheSameFolderBeforeItMakesAnything() throws IOException
    {
        final NodeContext first = config("node-1.yaml", "first", 1);
        final NodeContext second = config("node-2.yaml", "second", 2);
        assertThat(second.journalDir()).as("the default folder is shared").isEqualTo(first.journalDir());
        final Path journal = first.journalDir();
        try (RfmNode one = new RfmNode(first.out(line -> { })))
        {
            one.start();
            assertThatThrownBy(() -> new RfmNode(second.out(line -> { })).start())
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("node-2.yaml") + ": journal.dir " + journal + " is in use by another " +
                    "node's journal (pid " + ProcessHandle.current().pid() + "); give each node its own journal.dir");
            assertThat(root.resolve("second")).as("the refused node made no network").doesNotExist();
            // the journal itself refuses too, whoever starts it
            assertThatThrownBy(() -> Journal.start(new JournalConfig(journal, 9, 1 << 16, "HOURLY", -1, null)))
                .isInstanceOf(JournalException.class)
                .hasMessageContaining("journal dir " + journal + " is in use by another node's journal (pid ");
        }
        assertThat(Journal.folderInUse(journal)).as("closed, the folder is free").isNull();
        try (RfmNode two = new RfmNode(second.out(line -> { })))
        {
            two.start();
            assertThat(Journal.folderInUse(journal)).contains("is in use by another node's journal");
        }
    }
}
