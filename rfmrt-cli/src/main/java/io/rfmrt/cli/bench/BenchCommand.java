package io.rfmrt.cli.bench;

import picocli.CommandLine.Command;

/**
 * {@code rfmrt bench}: benchmark programs. Each compares side by side, in one run, so that ratios hold on a noisy
 * machine.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks, compared side by side.",
    subcommands = {BenchEvents.class, BenchCompare.class, BenchRamp.class, BenchBurst.class,
        BenchPeers.class, BenchHosts.class, BenchPlay.class, BenchJmh.class, BenchSoak.class})
public final class BenchCommand
{
    private BenchCommand()
    {
    }
}
