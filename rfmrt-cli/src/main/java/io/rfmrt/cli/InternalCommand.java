package io.rfmrt.cli;

import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.bench.BenchCompare;
import io.rfmrt.cli.bench.BenchEventsPeer;
import io.rfmrt.cli.bench.BenchHosts;
import io.rfmrt.cli.bench.BenchHostsProbe;
import io.rfmrt.cli.bench.BenchPeersReceiver;
import io.rfmrt.cli.common.ChildJvm;
import picocli.CommandLine.Command;

/**
 * {@code rfmrt internal}: the processes other commands start ({@link ChildJvm#startInternal}), never typed by a
 * user; hidden from the help, and each driven by positional arguments alone.
 */
@Command(name = ChildJvm.INTERNAL, hidden = true, mixinStandardHelpOptions = true,
    description = "Child processes of the other commands.",
    subcommands = {BenchEventsPeer.class, BenchCompare.Receiver.class, BenchPeersReceiver.class,
        BenchHosts.Sender.class, BenchHostsProbe.class},
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
final class InternalCommand
{
    private InternalCommand()
    {
    }
}
