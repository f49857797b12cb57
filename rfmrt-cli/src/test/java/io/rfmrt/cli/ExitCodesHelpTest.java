package io.rfmrt.cli;

import io.rfmrt.cli.common.ExitCodes;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command of the tree, hidden ones and picocli's {@code help} included, lists its exit codes in its help
 * (picocli's {@code exitCodeList}) under one heading, each an exit code of {@link ExitCodes}, with 0 and 2 always
 * (every command succeeds or is called wrongly), and the codes the commands known to return more do list them.
 */
class ExitCodesHelpTest
{
    private static Set<Integer> knownCodes() throws IllegalAccessException
    {
        final Set<Integer> codes = new TreeSet<>();
        for (final Field f : ExitCodes.class.getFields())
        {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class)
            {
                codes.add(f.getInt(null));
            }
        }
        return codes;
    }

    private static void walk(final CommandLine cli, final List<CommandLine> into)
    {
        into.add(cli);
        for (final CommandLine sub : cli.getSubcommands().values())
        {
            if (!into.contains(sub))
            {
                walk(sub, into);
            }
        }
    }

    private static String name(final CommandLine cli)
    {
        return cli.getParent() == null ? cli.getCommandName() : name(cli.getParent()) + " " + cli.getCommandName();
    }

    @Test
    void shouldListTheExitCodesOfEveryCommandInItsHelp() throws Exception
    {
        final Set<Integer> known = knownCodes();
        final List<CommandLine> commands = new ArrayList<>();
        walk(Main.commandLine(), commands);
        assertThat(commands).hasSizeGreaterThan(30);
        final List<String> problems = new ArrayList<>();
        for (final CommandLine cli : commands)
        {
            final CommandLine.Model.UsageMessageSpec usage = cli.getCommandSpec().usageMessage();
            final Map<String, String> list = usage.exitCodeList();
            if (list.isEmpty() || !ExitCodes.HEADING.equals(usage.exitCodeListHeading()))
            {
                problems.add(name(cli) + ": no exit codes under '" + ExitCodes.HEADING + "'");
                continue;
            }
            for (final String code : list.keySet())
            {
                if (!code.strip().matches("[0-9]+") || !known.contains(Integer.parseInt(code.strip())))
                {
                    problems.add(name(cli) + ": exit code '" + code + "' is not one of ExitCodes " + known);
                }
            }
            if (!list.containsKey("0") || !list.containsKey("2"))
            {
                problems.add(name(cli) + ": lists " + list.keySet() + ", without 0 or 2");
            }
        }
        assertThat(problems).isEmpty();
        assertThat(codes("rfmrt rfm wait", commands)).as("rfm wait times out").contains("3");
        assertThat(codes("rfmrt node", commands)).as("a node's app may find its run unsound").contains("4");
        assertThat(codes("rfmrt demo", commands)).contains("130", "143");
        assertThat(codes("rfmrt", commands)).containsExactly("0", "1", "2", "3", "4", "130", "143");
    }

    private static Set<String> codes(final String name, final List<CommandLine> commands)
    {
        for (final CommandLine cli : commands)
        {
            if (name(cli).equals(name))
            {
                return cli.getCommandSpec().usageMessage().exitCodeList().keySet();
            }
        }
        throw new AssertionError("no command " + name);
    }

    @Test
    void shouldPrintThemInTheHelp()
    {
        final StringWriter out = new StringWriter();
        final int exit = Main.run(new String[]{"rfm", "wait", "--help"}, new PrintWriter(out, true),
            new PrintWriter(new StringWriter(), true));
        assertThat(exit).isZero();
        assertThat(out.toString()).contains("Exit codes:\n", "  0   success\n", "  3   a wait ran out of time\n");
    }
}
