package io.rfmrt.cli;

import io.rfmrt.cli.common.Converters;
import io.rfmrt.cli.common.Renamed;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One name and one label per idea across every {@code rfmrt} command (docs/cli.md, "One name per idea"), checked on
 * picocli's model of the whole tree, hidden commands included: a new option that says the same thing another way
 * fails here.
 */
class VocabularyTest
{
    /** An idea's option name and the one label it has wherever it appears. */
    private static final Map<String, String> CONCEPTS = Map.ofEntries(
        Map.entry("--rate", "HZ"),
        Map.entry("--rates", "HZ"),
        Map.entry("--seconds", "S"),
        Map.entry("--step-seconds", "S"),
        Map.entry("--rows", "NAME"),
        Map.entry("--aeron-threading", "MODE"),
        Map.entry("--plot", "FILE"),
        Map.entry("--plots", "DIR"),
        Map.entry("--out", "DIR"),
        Map.entry("--network", "NAME"),
        Map.entry("--size", "BYTES"));

    /** Labels that said an idea another way and are gone: a duration is DURATION, seconds S, a network NAME. */
    private static final Set<String> RETIRED_LABELS = Set.of("TIME", "T", "SECONDS", "SEC", "NET", "MS", "US", "NS");

    /** Option names that mean different things on different commands, and why that is no clash. */
    private static final Map<String, String> HOMONYMS = Map.of(
        "--to", "rfm send: the destination node (M|all); replay: the latest record, a time (WHEN)");

    /**
     * Commands that print something and take no {@code --json}, with the reason. Every other command that is shown
     * in the help has {@code --json}.
     */
    private static final Map<String, String> NO_JSON = Map.ofEntries(
        Map.entry("bridge", "a daemon: its state is in rfm status --json and stat --json, its log lines are for people"),
        Map.entry("exporter", "a daemon serving /metrics, OpenMetrics text"),
        Map.entry("completion", "prints a shell script"),
        Map.entry("new-law", "writes a Maven project and names its folder"),
        Map.entry("rfm create", "an action: one line says what it made, the exit code is the result"),
        Map.entry("rfm destroy", "an action: one line says what it removed, the exit code is the result"),
        Map.entry("rfm poke", "an action: one line says what it wrote, the exit code is the result"),
        Map.entry("rfm send", "an action: one line says what it sent, the exit code is the result"),
        Map.entry("rfm link", "an action: one line says what it did, the exit code is the result"),
        Map.entry("rfm reset", "an action: one line says what it did, the exit code is the result"),
        Map.entry("tune", "a group: its subcommands print"),
        Map.entry("bench", "a group: its subcommands print"),
        Map.entry("rfm", "a group: its subcommands print"),
        Map.entry("help", "picocli's help"));

    @Test
    void shouldLabelEveryDurationDurationAndNothingElse()
    {
        final List<String> problems = new ArrayList<>();
        forEachOption((path, option) ->
        {
            final boolean duration = Arrays.stream(option.converters()).anyMatch(Converters.Duration.class::isInstance);
            if (duration != "DURATION".equals(option.paramLabel()))
            {
                problems.add(path + " " + option.longestName() + " " + option.paramLabel() +
                    (duration ? ": a duration (5s, 100ms) is labelled DURATION" :
                        ": DURATION is for a duration with its unit (Converters.Duration)"));
            }
            if (RETIRED_LABELS.contains(option.paramLabel()))
            {
                problems.add(path + " " + option.longestName() + " " + option.paramLabel() + ": a retired label");
            }
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldGiveAnOptionNameOneLabelOnEveryCommand()
    {
        final Map<String, Map<String, String>> labels = new TreeMap<>();
        forEachOption((path, option) ->
        {
            if (option.arity().max() > 0 && !option.hidden())
            {
                for (final String name : option.names())
                {
                    labels.computeIfAbsent(name, n -> new TreeMap<>()).put(path, option.paramLabel());
                }
            }
        });
        final List<String> problems = new ArrayList<>();
        labels.forEach((name, byCommand) ->
        {
            final String expected = CONCEPTS.get(name);
            if (expected != null && byCommand.values().stream().anyMatch(l -> !l.equals(expected)))
            {
                problems.add(name + " is labelled " + expected + " everywhere: " + byCommand);
            }
            else if (!HOMONYMS.containsKey(name) && byCommand.values().stream().distinct().count() > 1)
            {
                problems.add(name + " has more than one label: " + byCommand);
            }
        });
        assertThat(labels).as("options found").containsKeys("--rate", "--rows", "--seconds", "--network");
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldNameEachIdeaOnce()
    {
        final Map<String, CommandSpec> commands = commands();
        // rows: every bench that picks rows says --rows; rates in Hz: --rate/--rates, a playback's speed --speed
        for (final String bench : List.of("bench compare", "bench ramp", "bench burst", "bench peers", "bench hosts"))
        {
            assertThat(visible(commands.get(bench))).as(bench).contains("--rows");
        }
        assertThat(visible(commands.get("bench ramp"))).contains("--rates").doesNotContain("--steps");
        assertThat(visible(commands.get("replay"))).contains("--speed").doesNotContain("--rate");
        // Aeron's threading mode has one name, in the bridge and in the benches
        assertThat(visible(commands.get("bridge"))).contains("--aeron-threading").doesNotContain("--threading");
        assertThat(visible(commands.get("bench peers"))).contains("--aeron-threading");
        final List<String> problems = new ArrayList<>();
        commands.forEach((path, spec) ->
        {
            for (final String name : visible(spec))
            {
                if (Renamed.OPTIONS.containsKey(name) && !CONCEPTS.containsKey(name))
                {
                    problems.add(path + " " + name + ": an old name, write " + Renamed.OPTIONS.get(name));
                }
            }
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldHideOnlyOldNamesWhoseNewNameTheCommandShows()
    {
        final List<String> problems = new ArrayList<>();
        final List<String> hidden = new ArrayList<>();
        commands().forEach((path, spec) ->
        {
            for (final OptionSpec option : spec.options())
            {
                if (!option.hidden())
                {
                    continue;
                }
                final String name = option.longestName();
                hidden.add(path + " " + name);
                final String newName = Renamed.OPTIONS.get(name);
                if (newName == null)
                {
                    problems.add(path + " " + name + ": hidden, and not an old name in Renamed.OPTIONS");
                }
                else if (!visible(spec).contains(newName))
                {
                    problems.add(path + " " + name + ": its new name " + newName + " is not shown on the command");
                }
            }
        });
        assertThat(hidden).as("old names still read").contains("bench compare --modes", "bench peers --transports",
            "bench ramp --steps", "replay --rate", "bridge --threading", "tune suggest --out");
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldOfferJsonOnEveryCommandThatPrintsResults()
    {
        final List<String> problems = new ArrayList<>();
        commands().forEach((path, spec) ->
        {
            if (path.isEmpty() || spec.usageMessage().hidden() || NO_JSON.containsKey(path))
            {
                return;
            }
            if (spec.findOption("--json") == null)
            {
                problems.add("rfmrt " + path + ": no --json (or a reason in NO_JSON)");
            }
        });
        assertThat(NO_JSON.keySet()).as("every exemption names a command").allMatch(commands()::containsKey);
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldReadAnOldNameAndSayItIsDeprecated()
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        // refused after the names are read: the deprecation line comes first, then the usage error of the value
        final int exit = Main.run(new String[]{"bench", "compare", "--modes", "carrier-pigeon"}, new PrintWriter(out),
            new PrintWriter(err));
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString().lines().toList()).containsExactly(
            "rfmrt bench compare: --modes is deprecated, write --rows (it reads the same)",
            "rfmrt: --rows: unknown row 'carrier-pigeon'");
    }

    @Test
    void shouldRefuseAnOldNameBesideItsNewName()
    {
        final StringWriter err = new StringWriter();
        final int exit = Main.run(new String[]{"bench", "compare", "--modes", "interrupt", "--rows", "busy-spin"},
            new PrintWriter(new StringWriter()), new PrintWriter(err));
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--modes is the old name of --rows: give --rows alone");
    }

    private interface OptionVisitor
    {
        void visit(String path, OptionSpec option);
    }

    private static void forEachOption(final OptionVisitor visitor)
    {
        commands().forEach((path, spec) ->
        {
            for (final OptionSpec option : spec.options())
            {
                if (!option.usageHelp() && !option.versionHelp())
                {
                    visitor.visit(path.isEmpty() ? "rfmrt" : path, option);
                }
            }
        });
    }

    private static List<String> visible(final CommandSpec spec)
    {
        final List<String> names = new ArrayList<>();
        for (final OptionSpec option : spec.options())
        {
            if (!option.hidden())
            {
                names.addAll(List.of(option.names()));
            }
        }
        return names;
    }

    /** Every command of the tree by its path ("" for rfmrt itself, "bench compare"), aliases once. */
    private static Map<String, CommandSpec> commands()
    {
        final Map<String, CommandSpec> commands = new LinkedHashMap<>();
        walk(Main.commandLine(), "", commands, new IdentityHashMap<>());
        return commands;
    }

    private static void walk(final CommandLine cl, final String path, final Map<String, CommandSpec> into,
        final IdentityHashMap<CommandSpec, Boolean> seen)
    {
        if (seen.put(cl.getCommandSpec(), Boolean.TRUE) != null)
        {
            return;
        }
        into.put(path, cl.getCommandSpec());
        for (final Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet())
        {
            if (sub.getKey().equals(sub.getValue().getCommandName()))
            {
                walk(sub.getValue(), path.isEmpty() ? sub.getKey() : path + " " + sub.getKey(), into, seen);
            }
        }
    }
}
