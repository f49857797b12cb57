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
    void shouldGiveOptionsToTheCommandThatALineOrSectionNames(@TempDir final Path dir) throws IOException
    {
        final Path page = dir.resolve("page.md");
        Files.writeString(page, String.join("\n",
            "# A page",
            "",
            "```",
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
        final String flags = System.getProperty("rfmrt.test.jvm.flags", "").trim();
        final String classpath = System.getProperty("rfmrt.test.classpath", System.getProperty("java.class.path"));
        Files.writeString(file, "#!/usr/bin/env bash\nexec '" + java + "' " + flags +
            " -Xmx256m -XX:TieredStopAtLevel=1 -cp '" + classpath + "' " + Main.class.getName() + " \"$@\"\n");
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
