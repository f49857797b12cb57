package io.rfmrt.cli.bench;

import io.rfmrt.cli.common.ExitCodes;
import picocli.CommandLine.Command;

/**
 * {@code rfmrt bench}: benchmark programs. Each compares side by side, in one run, so that ratios hold on a noisy
 * machine.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks, compared side by side.",
    subcommands = {BenchEvents.class, BenchCompare.class, BenchRamp.class, BenchBurst.class,
        BenchPeers.class, BenchHosts.class, BenchPlay.class, BenchJmh.class, BenchSoak.class},
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class BenchCommand
{
    private BenchCommand()
    {
    }
}
