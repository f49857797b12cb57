package io.rfmrt.cli;

import io.rfmrt.cli.common.ChildJvm;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A child process runs the {@code rfmrt} command line: the class ChildJvm names is {@link Main}, and a hidden child
 * command is started as {@code rfmrt internal NAME}.
 */
class ChildJvmTest
{
    @Test
    void shouldStartChildrenOnTheCommandLinesMainClass()
    {
        assertThat(ChildJvm.MAIN_CLASS).isEqualTo(Main.class.getName());
        final List<String> command = ChildJvm.builder(ChildJvm.INTERNAL, "bench-peer", "futex").command();
        assertThat(command.subList(command.size() - 4, command.size()))
            .containsExactly(Main.class.getName(), "internal", "bench-peer", "futex");
    }

    @Test
    void shouldHaveEveryHiddenChildCommandUnderTheInternalFamily()
    {
        final picocli.CommandLine cli = new picocli.CommandLine(Main.class);
        assertThat(cli.getSubcommands().get(ChildJvm.INTERNAL).getSubcommands().keySet())
            .containsExactlyInAnyOrder("bench-peer", "bench-receiver", "bench-peer-receiver", "bench-hosts-sender",
                "bench-hosts-probe");
        assertThat(cli.getSubcommands().keySet()).as("no child command at the top level")
            .doesNotContain("bench-peer", "bench-receiver", "bench-peer-receiver", "bench-hosts-sender",
                "bench-hosts-probe");
    }
}
