package io.rfmrt.cli.tune;

import io.rfmrt.cli.common.ExitCodes;
import picocli.CommandLine.Command;

/**
 * {@code rfmrt tune}: loop tuning from measurements. {@code rfmrt tune suggest} ({@link TuneSuggest}) suggests gains
 * from a measured plant. See docs/loop-tuning.md.
 */
@Command(name = "tune", mixinStandardHelpOptions = true,
    description = "Loop tuning from measurements: suggest gains from a measured plant.",
    subcommands = {TuneSuggest.class},
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class TuneCommand
{
}
