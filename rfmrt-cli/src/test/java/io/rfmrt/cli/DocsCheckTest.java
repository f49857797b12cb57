package io.rfmrt.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ScopeType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The docs check (docs/docs-check.md): README.md, docs/*.md and ansible/README.md against the command line and the
 * tree. (a) every command and option of {@code rfmrt} is named in them, and every {@code --option} they name for an
 * rfmrt command exists; (b) their console blocks marked {@code <!-- run -->} run in a scratch folder, with the exit
 * codes and (for {@code <!-- run exact -->}) the output shown; (c) their relative links and images resolve.
 */
class DocsCheckTest
{
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern TUNING_SCRIPT = Pattern.compile("\\brfmrt-(isolate|irq-affinity|msix-plan)\\b");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    /** A bash command of the docs that takes longer than this is not one to run in the check. */
    private static final long SHELL_TIMEOUT_S = 60;
    private static DocsModel model;
    private static List<Path> docs;

    @BeforeAll
    static void readDocs() throws IOException
    {
        assertThat(REPO.resolve("README.md")).as("the repository root").exists();
        docs = new ArrayList<>();
        docs.add(REPO.resolve("README.md"));
        try (Stream<Path> files = Files.list(REPO.resolve("docs")))
        {
            docs.addAll(files.filter(f -> f.toString().endsWith(".md")).sorted().toList());
        }
        if (Files.exists(REPO.resolve("ansible/README.md")))
        {
            docs.add(REPO.resolve("ansible/README.md"));
        }
        model = new DocsModel();
        docs.forEach(model::read);
    }

    @Test
    void shouldNameEveryCommandAndOptionAndOnlyThoseThatExist()
    {
        final List<String> problems = new ArrayList<>(model.problems);
        for (final DocsModel.Command command : model.commands.values())
        {
            if (command.internal())
            {
                continue;
            }
            final String name = DocsModel.display(command.path());
            if (!command.path().isEmpty() && !model.documentedCommands.containsKey(command.path()))
            {
                problems.add(name + ": no doc names this command (README.md, docs/*.md)");
            }
            for (final OptionSpec option : command.spec().options())
            {
                if (option.inherited() || (DocsModel.standardHelp(option) && !command.path().isEmpty()))
                {
                    continue;
                }
                final String longName = option.longestName();
                if (!documented(command, option, longName))
                {
                    problems.add(name + " " + longName + ": no doc names this option (README.md, docs/*.md)");
                }
            }
        }
        assertThat(model.documentedOptions).as("options found in the docs").isNotEmpty();
        assertThat(problems).as("docs and command line out of step").isEmpty();
    }

    private static boolean documented(final DocsModel.Command command, final OptionSpec option, final String name)
    {
        for (final Map.Entry<String, Map<String, DocsModel.Where>> entry : model.documentedOptions.entrySet())
        {
            final boolean here = entry.getKey().equals(command.path());
            final boolean below = option.scopeType() == ScopeType.INHERIT &&
                (command.path().isEmpty() || entry.getKey().startsWith(command.path() + " "));
            if ((here || below) && entry.getValue().containsKey(name))
            {
                return true;
            }
        }
        return false;
    }

    @Test
    void shouldRunTheRunnableBlocksAsShown(@TempDir final Path scratch) throws Exception
    {
        assertThat(model.runnable).as("runnable blocks in the docs").isNotEmpty();
        final Path bin = Files.createDirectories(scratch.resolve("bin"));
        writeLauncher(bin.resolve("rfmrt"));
        final List<String> problems = new ArrayList<>();
        for (final DocsModel.RunnableBlock block : model.runnable)
        {
            final Path folder = Files.createDirectories(scratch.resolve("block-" + block.where().line() + "-" +
                UUID.randomUUID()));
            final Path simRoot = Path.of("/dev/shm", "rfmrt-docs-test-" + UUID.randomUUID());
            try
            {
                for (final DocsModel.Step step : block.steps())
                {
                    final String problem = run(block, step, folder, bin, simRoot);
                    if (problem != null)
                    {
                        problems.add(problem);
                        break;
                    }
                }
            }
            finally
            {
                CliProcesses.removeTree(simRoot);
            }
        }
        assertThat(problems).as("runnable blocks whose commands do not do what the docs show").isEmpty();
    }

    private static String run(final DocsModel.RunnableBlock block, final DocsModel.Step step, final Path folder,
        final Path bin, final Path simRoot) throws Exception
    {
        final ProcessBuilder pb = new ProcessBuilder("bash", "-c", step.command()).directory(folder.toFile())
            .redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + pb.environment().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().put("RFMRT_SIM_ROOT", simRoot.toString());
        pb.environment().remove("RFMRT_DEBUG");
        final Process process = pb.start();
        process.getOutputStream().close();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            return block.where().file().getFileName() + ":" + step.line() + ": `" + step.command() + "` did not end";
        }
        final String where = block.where().file().getFileName() + ":" + step.line() + ": `$ " + step.command() + "`";
        if (process.exitValue() != step.exit())
        {
            return where + ": exit " + process.exitValue() + ", the doc shows " + step.exit() + "; output:\n" + output;
        }
        final List<String> actual = output.lines().map(DocsCheckTest::trimEnd).toList();
        final List<String> expected = trailingBlankLinesDropped(step.output());
        if (block.exact() && !matches(expected, 0, actual, 0))
        {
            return where + ": output differs from the doc\n--- the doc shows:\n" + String.join("\n", expected) +
                "\n--- the command printed:\n" + String.join("\n", actual);
        }
        return null;
    }

    private static List<String> trailingBlankLinesDropped(final List<String> lines)
    {
        int end = lines.size();
        while (end > 0 && lines.get(end - 1).isBlank())
        {
            end--;
        }
        return lines.subList(0, end).stream().map(DocsCheckTest::trimEnd).toList();
    }

    private static String trimEnd(final String s)
    {
        return s.replaceAll("\\s+$", "");
    }

    /** doctest's ELLIPSIS: a line "..." stands for any lines, "..." inside a line for any text. */
    static boolean matches(final List<String> expected, final int i, final List<String> actual, final int j)
    {
        if (i == expected.size())
        {
            return j == actual.size();
        }
        if (expected.get(i).trim().equals("..."))
        {
            for (int k = j; k <= actual.size(); k++)
            {
                if (matches(expected, i + 1, actual, k))
                {
                    return true;
                }
            }
            return false;
        }
        return j < actual.size() && lineMatches(expected.get(i), actual.get(j)) &&
            matches(expected, i + 1, actual, j + 1);
    }

    private static boolean lineMatches(final String expected, final String actual)
    {
        if (!expected.contains("..."))
        {
            return expected.equals(actual);
        }
        final String regex = Stream.of(expected.split("\\.\\.\\.", -1)).map(Pattern::quote)
            .collect(Collectors.joining(".*"));
        return actual.matches(regex);
    }

    @Test
    void shouldHoldEveryOutputBlockAgainstWhatTheProgramsPrintToday()
    {
        final DocsFormats programs = formats(false);
        final DocsFormats scripts = formats(true);
        final List<String> problems = new ArrayList<>();
        int checked = 0;
        int heldOut = 0;
        for (final DocsModel.OutputBlock block : model.outputs)
        {
            if (block.heldOut() != null)
            {
                heldOut++;
                continue;
            }
            checked++;
            // the tuning scripts' printf formats hold only their own output: a row of padded columns fits many
            final DocsFormats formats = TUNING_SCRIPT.matcher(block.command()).find() ? scripts : programs;
            if (!DATE.matcher(block.date()).matches())
            {
                problems.add(block.where() + ": the output marker's date '" + block.date() + "' is no date");
            }
            for (int i = 0; i < block.lines().size(); i++)
            {
                final String line = block.lines().get(i);
                if (line.isBlank() || line.trim().equals("...") || line.startsWith("$ "))
                {
                    continue;
                }
                if (!formats.matches(line))
                {
                    problems.add(block.where().file().getFileName() + ":" + (block.where().line() + 1 + i) + ": `" +
                        line.trim() + "` is no line that " + block.command() + " prints today");
                }
            }
        }
        System.out.printf("docs check: %d output blocks held against the programs' formats, %d held out%n", checked,
            heldOut);
        assertThat(checked).as("output blocks held against the program").isPositive();
        assertThat(problems).as("output blocks that the programs do not print (today)").isEmpty();
    }

    @Test
    void shouldTellOutputThatNoProgramPrintsFromOutputThatOneDoes()
    {
        final DocsFormats formats = formats(false);
        // BenchCompare's header and a row of it, as printed
        assertThat(formats.matches("mode                 frames   lost     mean      p50      p90      p99    p99.9" +
            "       max   cpu%  p50/w   stages p50: transfer isr handoff handler")).isTrue();
        assertThat(formats.matches("interrupt             11000      0     15.7     13.0     24.1     52.0    102.3" +
            "     202.5    2.5   1.29   6.6 0.2 5.7 0.0")).isTrue();
        // a column dropped (p90), and a header with columns no version printed
        assertThat(formats.matches("interrupt             11000      0     15.7     13.0     52.0    102.3" +
            "     202.5    2.5   1.29   6.6 0.2 5.7 0.0")).isFalse();
        assertThat(formats.matches("mode                   sent   lost     mean     p50      p99    p99.9       max" +
            "   cpu%  p50/w  lost by cause (warm-up s / after)  isr,consumer minflt/nivcsw")).isFalse();
        // a summary key the demo prints, and one it does not
        assertThat(formats.matches("  cycles                     9977")).isTrue();
        assertThat(formats.matches("  cycles_per_fortnight       9977")).isFalse();
    }

    private static DocsFormats formats(final boolean withScripts)
    {
        final List<Path> scripts = new ArrayList<>();
        try (Stream<Path> files = Files.list(REPO.resolve("tuning/bin")))
        {
            scripts.addAll(withScripts ? files.sorted().toList() : List.of());
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
        return new DocsFormats(Stream.of("rfm-driver", "rfm-bridge", "rt-runtime", "control-loop", "rfmrt-cli")
            .map(m -> REPO.resolve(m).resolve("src/main/java")).toList(), scripts);
    }

    @Test
    void shouldRunEveryBashCommandOrSayWhyNot(@TempDir final Path scratch) throws Exception
    {
        final Path bin = Files.createDirectories(scratch.resolve("bin"));
        writeLauncher(bin.resolve("rfmrt"));
        final List<String> problems = new ArrayList<>();
        int ran = 0;
        int notRun = 0;
        for (final List<DocsModel.ShellCommand> block : model.shellBlocks)
        {
            if (block.isEmpty())
            {
                continue;
            }
            final Path folder = Files.createDirectories(scratch.resolve("bash-" + block.get(0).where().line() + "-" +
                UUID.randomUUID()));
            final Path simRoot = Path.of("/dev/shm", "rfmrt-docs-test-" + UUID.randomUUID());
            try
            {
                for (final DocsModel.ShellCommand command : block)
                {
                    if (command.notRun() != null)
                    {
                        notRun++;
                        continue;
                    }
                    ran++;
                    final String problem = runShell(command, folder, bin, simRoot);
                    if (problem != null)
                    {
                        problems.add(problem);
                        break;
                    }
                }
            }
            finally
            {
                CliProcesses.removeTree(simRoot);
            }
        }
        System.out.printf("docs check: %d commands of bash blocks run, %d marked not run%n", ran, notRun);
        assertThat(problems).as("bash commands of the docs that do not run as shown").isEmpty();
    }

    private static String runShell(final DocsModel.ShellCommand command, final Path folder, final Path bin,
        final Path simRoot) throws Exception
    {
        final String line = command.command().replaceAll("(^|[\\s;&|(])\\./rfmrt\\b", "$1rfmrt");
        final ProcessBuilder pb = new ProcessBuilder("bash", "-c", line).directory(folder.toFile())
            .redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + REPO.resolve("tuning/bin") + ":" +
            pb.environment().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().put("RFMRT_SIM_ROOT", simRoot.toString());
        pb.environment().remove("RFMRT_DEBUG");
        final Process process = pb.start();
        process.getOutputStream().close();
        final java.io.ByteArrayOutputStream output = new java.io.ByteArrayOutputStream();
        final Thread reader = new Thread(() ->
        {
            try
            {
                process.getInputStream().transferTo(output);
            }
            catch (final IOException ignored)
            {
                // the process was ended
            }
        }, "docs-check-output");
        reader.start();
        final String where = command.where() + ": `" + command.command() + "`";
        if (!process.waitFor(SHELL_TIMEOUT_S, TimeUnit.SECONDS))
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            return where + ": still running after " + SHELL_TIMEOUT_S + " s (mark it # not run: REASON)";
        }
        reader.join(TimeUnit.SECONDS.toMillis(5));
        if (!command.exits().contains(process.exitValue()))
        {
            return where + ": exit " + process.exitValue() + ", the doc shows " + command.exits() + "; output:\n" +
                output.toString(StandardCharsets.UTF_8);
        }
        return null;
    }

    @Test
    void shouldGiveOptionsToTheCommandThatALineOrSectionNames(@TempDir final Path dir) throws IOException
    {
        final Path page = dir.resolve("page.md");
        Files.writeString(page, String.join("\n",
            "# A page",
            "",
            "```text",
            "rfmrt-isolate --rt-cpus 4-7 --skip irqs       # a tuning script: its options are its own",
            "./run-tests --java-only && ./rfmrt node --config node.yaml --bogus",
            "rfmrt check: sysroot /",
            "rfmrt replay DIR [--from T]",
            "                 [--rerun [--gains FILE]] [--nope]",
            "rfmrt stats",
            "```",
            "",
            "`rfmrt bench compare` measures; `--modes` picks modes, `--wrong` is not one of its options.",
            "`deploy/package.sh --out DIR` writes elsewhere, and `--out` stays package.sh's.",
            "",
            "## Another section",
            "",
            "`--whatever` belongs to no command here.",
            "<!-- docs-check: off -->",
            "`rfmrt node --ignored`",
            "<!-- docs-check: on -->",
            ""));
        final DocsModel page1 = new DocsModel();
        page1.read(page);
        assertThat(page1.problems).containsExactly(
            "page.md:5: 'rfmrt node --bogus': rfmrt node has no option --bogus",
            "page.md:8: 'rfmrt replay --nope': rfmrt replay has no option --nope",
            "page.md:9: 'rfmrt stats': rfmrt has no command 'stats'",
            "page.md:12: 'rfmrt bench compare --wrong': rfmrt bench compare has no option --wrong");
        assertThat(page1.documentedOptions.get("replay")).containsOnlyKeys("--from", "--rerun", "--gains", "--nope");
        assertThat(page1.documentedOptions.get("bench compare")).containsOnlyKeys("--modes", "--wrong");
        assertThat(page1.documentedOptions.get("node")).containsOnlyKeys("--config", "--bogus");
        assertThat(page1.documentedOptions).doesNotContainKey("");
        assertThat(page1.documentedCommands).containsOnlyKeys("node", "replay", "bench", "bench compare");
    }

    @Test
    void shouldMatchOutputTheWayDoctestDoes()
    {
        assertThat(matches(List.of("a", "...", "d"), 0, List.of("a", "b", "c", "d"), 0)).isTrue();
        assertThat(matches(List.of("a", "...", "d"), 0, List.of("a", "d"), 0)).isTrue();
        assertThat(matches(List.of("a", "...", "d"), 0, List.of("a", "b"), 0)).isFalse();
        assertThat(matches(List.of("x ... z"), 0, List.of("x y y z"), 0)).isTrue();
        assertThat(matches(List.of("x ... z"), 0, List.of("x y y"), 0)).isFalse();
        assertThat(matches(List.of("a"), 0, List.of("a", "b"), 0)).isFalse();
    }

    private static void writeLauncher(final Path file) throws IOException
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String flags = String.join(" ", CliProcesses.childJvmFlags());
        final String classpath = ChildClassArchive.classpathArgs().stream().map(arg -> "'" + arg + "'")
            .collect(Collectors.joining(" "));
        Files.writeString(file, "#!/usr/bin/env bash\nexec '" + java + "' " + flags +
            " -Xmx256m " + classpath + " " + Main.class.getName() + " \"$@\"\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void shouldResolveEveryRelativeLinkAndImage() throws IOException
    {
        assertThat(model.links).as("links in the docs").isNotEmpty();
        final List<String> problems = new ArrayList<>();
        for (final DocsModel.Link link : model.links)
        {
            final String target = link.target();
            if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*"))
            {
                continue;
            }
            final int hash = target.indexOf('#');
            final String path = hash < 0 ? target : target.substring(0, hash);
            final String anchor = hash < 0 ? null : target.substring(hash + 1);
            final Path file = path.isEmpty() ? link.where().file() :
                link.where().file().getParent().resolve(path).normalize();
            if (!Files.exists(file))
            {
                problems.add(link.where() + ": " + target + ": no such file (" + REPO.relativize(file) + ")");
                continue;
            }
            if (anchor != null && file.toString().endsWith(".md"))
            {
                final Set<String> anchors = model.anchors.computeIfAbsent(file.toAbsolutePath().normalize(), f ->
                {
                    try
                    {
                        return DocsModel.headingAnchors(Files.readAllLines(f));
                    }
                    catch (final IOException ex)
                    {
                        throw new java.io.UncheckedIOException(ex);
                    }
                });
                if (!anchors.contains(anchor))
                {
                    problems.add(link.where() + ": " + target + ": no heading '#" + anchor + "' in " +
                        REPO.relativize(file));
                }
            }
        }
        assertThat(problems).as("broken links").isEmpty();
    }
}
