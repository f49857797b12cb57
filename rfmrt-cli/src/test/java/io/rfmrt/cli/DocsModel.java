package io.rfmrt.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the project's Markdown says about the {@code rfmrt} command line, read the way docs/docs-check.md describes:
 * which commands it names, which {@code --options} it names for which command, its runnable console blocks and its
 * relative links. Test code for {@link DocsCheckTest}.
 */
final class DocsModel
{
    /** Tools whose options are their own, never rfmrt's; a line or code span that starts with one names them. */
    static final Set<String> FOREIGN_TOOLS = Set.of("run-tests", "package.sh", "mvn", "java", "bats", "shellcheck",
        "cyclictest", "stress-ng", "systemctl", "systemd-analyze", "journalctl", "chrt", "taskset", "setpriv",
        "sysctl", "tar", "cp", "mv", "mkdir", "rm", "ls", "cat", "grep", "awk", "od", "ps", "watch", "cpupower",
        "apt", "apt-get", "update-grub", "mount", "swapoff", "ansible-playbook", "capture.sh", "capture-fixture.sh",
        "run-tests.sh", "git", "curl", "head", "tail", "sed", "pgrep", "lscpu", "install", "useradd", "env", "bash",
        "sh", "ip", "du", "jq", "python3");

    private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,}|~{3,})\\s*([\\w+-]*).*$");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$");
    private static final Pattern SPAN = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern OPTION = Pattern.compile("(?<![A-Za-z0-9_-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*");
    private static final Pattern WORD = Pattern.compile("[a-z][a-z0-9-]*");
    private static final Pattern ENV_ASSIGNMENT = Pattern.compile("[A-Z_][A-Z0-9_]*=\\S*");
    private static final Pattern LINK =
        Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** Where a shell line splits into simple commands; a | inside a word (--down|--up, 8|16) is no pipe. */
    private static final Pattern COMMAND_SEPARATOR =
        Pattern.compile("\\s*(?:&&|\\|\\||;|(?<![\\[|\\w-])\\|(?![-\\w])|\\s&\\s|\\s&$)\\s*");
    private static final Pattern REFERENCE = Pattern.compile("^\\s*\\[[^\\]]+\\]:\\s+(\\S+)");
    private static final Pattern IMG = Pattern.compile("<img\\s[^>]*src=\"([^\"]+)\"");
    private static final Pattern RUN_MARKER = Pattern.compile("^<!--\\s*run(\\s+exact)?\\s*-->\\s*$");
    private static final Pattern CHECK_MARKER = Pattern.compile("^<!--\\s*docs-check:\\s*(off|on)\\s*-->\\s*$");
    private static final Pattern COMMENT = Pattern.compile("(^|\\s)#(\\s|$)");
    private static final Pattern EXIT_COMMENT = Pattern.compile("#\\s*exit\\s+(\\d+)\\s*$");
    private static final Set<String> SHELL_BLOCKS = Set.of("", "bash", "sh", "shell", "console", "text");
    private static final Set<String> COMMAND_BLOCKS = Set.of("bash", "sh", "shell");
    /** {@code <!-- output 2026-12-03: rfmrt bench events -->}, optionally {@code ; held out: REASON}. */
    private static final Pattern OUTPUT_MARKER = Pattern.compile(
        "^<!--\\s*output\\s+(\\d{4}-\\d{2}-\\d{2}):\\s*(.+?)(?:;\\s*held out:\\s*(.+?))?\\s*-->\\s*$");
    /** {@code <!-- held out: REASON -->}: a block that looks like output but is no program's (a hand-made summary). */
    private static final Pattern HELD_MARKER = Pattern.compile("^<!--\\s*held out:\\s*(.+?)\\s*-->\\s*$");
    /** In a bash line's comment: {@code exit N}, or {@code exit N or M} where the machine decides. */
    private static final Pattern SHELL_EXIT = Pattern.compile("\\bexit (\\d+)(?: or (\\d+))?\\b");
    private static final Pattern NOT_RUN = Pattern.compile("#\\s*not run:\\s*(\\S.*)$");

    /** One command of the tree. */
    record Command(String path, CommandSpec spec, Command parent)
    {
        boolean internal()
        {
            // child-process entry points: hidden, and driven by positional arguments alone
            return spec.usageMessage().hidden() && spec.options().stream().allMatch(DocsModel::standardHelp);
        }
    }

    /** A place in a document. */
    record Where(Path file, int line)
    {
        @Override
        public String toString()
        {
            return file.getFileName() + ":" + line;
        }
    }

    /** A console block marked runnable. */
    record RunnableBlock(Where where, boolean exact, List<Step> steps)
    {
    }

    /** One {@code $ command} of a runnable block and the output shown under it. */
    record Step(int line, String command, int exit, List<String> output)
    {
    }

    /**
     * A fenced block that shows what a command printed: the command and date of its marker, or why the check holds
     * it out (heldOut, null when it is checked).
     */
    record OutputBlock(Where where, String date, String command, String heldOut, List<String> lines)
    {
    }

    /** One command of a bash block: run by the docs check, or carrying {@code # not run: REASON} (notRun). */
    record ShellCommand(Where where, String command, List<Integer> exits, String notRun)
    {
    }

    /** A link or image in a document. */
    record Link(Where where, String target)
    {
    }

    final Map<String, Command> commands = new LinkedHashMap<>();
    /** command path → option names the docs give it, with where. */
    final Map<String, Map<String, Where>> documentedOptions = new LinkedHashMap<>();
    final Map<String, Where> documentedCommands = new LinkedHashMap<>();
    final List<String> problems = new ArrayList<>();
    final List<RunnableBlock> runnable = new ArrayList<>();
    final List<OutputBlock> outputs = new ArrayList<>();
    /** The commands of each bash block, a block a list. */
    final List<List<ShellCommand>> shellBlocks = new ArrayList<>();
    final List<Link> links = new ArrayList<>();
    final Map<Path, Set<String>> anchors = new LinkedHashMap<>();

    private Command context;
    private String foreign;
    private boolean off;

    DocsModel()
    {
        final CommandLine root = new CommandLine(Main.class);
        walk(root, "", null, new IdentityHashMap<>());
    }

    private void walk(final CommandLine cl, final String path, final Command parent,
        final IdentityHashMap<CommandSpec, Boolean> seen)
    {
        if (seen.put(cl.getCommandSpec(), Boolean.TRUE) != null)
        {
            return;
        }
        final Command command = new Command(path, cl.getCommandSpec(), parent);
        commands.put(path, command);
        for (final Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet())
        {
            if (sub.getKey().equals(sub.getValue().getCommandName()))
            {
                walk(sub.getValue(), path.isEmpty() ? sub.getKey() : path + " " + sub.getKey(), command, seen);
            }
        }
    }

    static boolean standardHelp(final OptionSpec option)
    {
        return option.usageHelp() || option.versionHelp();
    }

    static String display(final String path)
    {
        return path.isEmpty() ? "rfmrt" : "rfmrt " + path;
    }

    /**
     * @param file a Markdown file to read.
     */
    void read(final Path file)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        context = null;
        foreign = null;
        off = false;
        anchors.put(file.toAbsolutePath().normalize(), headingAnchors(lines));
        String fence = null;
        String info = "";
        int blockStart = 0;
        Boolean pendingRun = null;
        Boolean blockRun = null;
        String[] pendingOutput = null;
        String[] blockOutput = null;
        final List<String> block = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i);
            final Matcher f = FENCE.matcher(line);
            if (fence == null)
            {
                if (f.matches())
                {
                    fence = f.group(2);
                    info = f.group(3).toLowerCase(Locale.ROOT);
                    blockStart = i + 1;
                    blockRun = pendingRun;
                    pendingRun = null;
                    blockOutput = pendingOutput;
                    pendingOutput = null;
                    block.clear();
                    continue;
                }
                final Matcher check = CHECK_MARKER.matcher(line.trim());
                if (check.matches())
                {
                    off = check.group(1).equals("off");
                    context = null;
                    foreign = null;
                    continue;
                }
                final Matcher run = RUN_MARKER.matcher(line.trim());
                if (run.matches())
                {
                    pendingRun = run.group(1) != null;
                    continue;
                }
                final Matcher output = OUTPUT_MARKER.matcher(line.trim());
                if (output.matches())
                {
                    pendingOutput = new String[] {output.group(1), output.group(2).trim(), output.group(3)};
                    continue;
                }
                final Matcher held = HELD_MARKER.matcher(line.trim());
                if (held.matches())
                {
                    pendingOutput = new String[] {null, null, held.group(1)};
                    continue;
                }
                if (!line.isBlank())
                {
                    pendingRun = null;
                    pendingOutput = null;
                }
                prose(new Where(file, i + 1), line);
            }
            else if (line.trim().startsWith(fence) && line.trim().replace(fence.substring(0, 1), "").isEmpty())
            {
                if (blockRun != null && !off)
                {
                    if (!info.equals("console"))
                    {
                        problems.add(new Where(file, blockStart) + ": a block marked <!-- run --> must be a " +
                            "```console block (it is '" + info + "')");
                    }
                    else
                    {
                        runnable.add(new RunnableBlock(new Where(file, blockStart), blockRun,
                            steps(blockStart, block)));
                    }
                }
                if (!off)
                {
                    kindOfBlock(file, blockStart, fence, info, blockRun, blockOutput, block);
                }
                if (SHELL_BLOCKS.contains(info) && !off)
                {
                    codeBlock(file, blockStart, block);
                }
                fence = null;
                blockRun = null;
                blockOutput = null;
            }
            else
            {
                block.add(line);
            }
        }
        if (fence != null)
        {
            problems.add(new Where(file, blockStart) + ": code block never closed");
        }
    }

    /**
     * Every fenced block says what it is: commands ({@code bash}), a session ({@code console}), output (a marker
     * above it), a figure or form ({@code text}), or code in its language.
     */
    private void kindOfBlock(final Path file, final int start, final String fence, final String info,
        final Boolean run, final String[] output, final List<String> block)
    {
        final Where where = new Where(file, start);
        if (fence.length() > 3)
        {
            // a fence of four or more shows a Markdown example, blocks and markers included
            return;
        }
        if (output != null)
        {
            if (!info.isEmpty() && !info.equals("text") && !info.equals("console"))
            {
                problems.add(where + ": an output block must be untagged, ```text or ```console (it is '" + info +
                    "')");
            }
            outputs.add(new OutputBlock(where, output[0], output[1], output[2], List.copyOf(block)));
            return;
        }
        if (COMMAND_BLOCKS.contains(info))
        {
            shellBlocks.add(shellCommands(file, start, block));
        }
        else if (info.equals("console") && run == null)
        {
            problems.add(where + ": a ```console block is run (<!-- run -->) or is output (<!-- output DATE: " +
                "COMMAND -->)");
        }
        else if (info.isEmpty())
        {
            problems.add(where + ": an untagged block: say what it is (```bash commands, ```text figure or form, " +
                "or output with <!-- output DATE: COMMAND --> above it)");
        }
    }

    /** The commands of a bash block; a line {@code # not run: REASON} covers the commands below it, to a blank line. */
    private static List<ShellCommand> shellCommands(final Path file, final int start, final List<String> block)
    {
        final List<ShellCommand> commands = new ArrayList<>();
        String notRunAbove = null;
        final StringBuilder logical = new StringBuilder();
        int first = 0;
        for (int i = 0; i < block.size(); i++)
        {
            final String raw = block.get(i).trim();
            if (logical.length() == 0)
            {
                first = start + 1 + i;
            }
            if (raw.endsWith("\\"))
            {
                logical.append(raw, 0, raw.length() - 1).append(' ');
                continue;
            }
            logical.append(raw);
            final String line = logical.toString().trim();
            logical.setLength(0);
            if (line.isEmpty())
            {
                notRunAbove = null;
                continue;
            }
            final Matcher notRun = NOT_RUN.matcher(line);
            if (line.startsWith("#"))
            {
                if (notRun.find())
                {
                    notRunAbove = notRun.group(1).trim();
                }
                continue;
            }
            final String reason = notRun.find() ? notRun.group(1).trim() : notRunAbove;
            final Matcher comment = COMMENT.matcher(line);
            final Matcher e = SHELL_EXIT.matcher(comment.find() ? line.substring(comment.start()) : "");
            final List<Integer> exits = new ArrayList<>(List.of(0));
            if (e.find())
            {
                exits.set(0, Integer.parseInt(e.group(1)));
                if (e.group(2) != null)
                {
                    exits.add(Integer.parseInt(e.group(2)));
                }
            }
            commands.add(new ShellCommand(new Where(file, first), line, exits, reason));
        }
        return commands;
    }

    private void prose(final Where where, final String line)
    {
        final Matcher heading = HEADING.matcher(line);
        if (heading.matches())
        {
            context = null;
            foreign = null;
        }
        final Matcher link = LINK.matcher(withoutSpans(line));
        while (link.find())
        {
            links.add(new Link(where, link.group(1)));
        }
        final Matcher ref = REFERENCE.matcher(line);
        if (ref.find())
        {
            links.add(new Link(where, ref.group(1)));
        }
        final Matcher img = IMG.matcher(line);
        while (img.find())
        {
            links.add(new Link(where, img.group(1)));
        }
        final Matcher span = SPAN.matcher(line);
        while (!off && span.find())
        {
            final String text = span.group(2).replace("\\|", "|").trim();
            final List<String> tokens = tokens(text);
            if (tokens.isEmpty())
            {
                continue;
            }
            if (tokens.get(0).startsWith("-") || tokens.get(0).startsWith("[-"))
            {
                if (context != null && foreign == null)
                {
                    options(where, context, tokens, 0);
                }
                continue;
            }
            final String first = firstWord(tokens);
            if (first != null && isRfmrt(first) && tokens.size() == 1)
            {
                // the program's name, not a command line
                continue;
            }
            if (first != null && isRfmrt(first))
            {
                simpleCommands(where, text);
            }
            else if (first != null && (isForeign(first) || tokens.stream().skip(1).anyMatch(t -> t.startsWith("-"))))
            {
                foreign = first;
                context = null;
            }
        }
    }

    private static String withoutSpans(final String line)
    {
        return SPAN.matcher(line).replaceAll("");
    }

    private void codeBlock(final Path file, final int start, final List<String> block)
    {
        final StringBuilder logical = new StringBuilder();
        int first = 0;
        for (int i = 0; i < block.size(); i++)
        {
            String line = block.get(i).trim();
            if (logical.length() == 0)
            {
                first = start + 1 + i;
            }
            if (line.endsWith("\\"))
            {
                logical.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            logical.append(line);
            line = logical.toString().trim();
            logical.setLength(0);
            if (line.startsWith("$ "))
            {
                line = line.substring(2);
            }
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final List<String> tokens = tokens(withoutComment(line));
            if (!tokens.isEmpty() && (tokens.get(0).startsWith("-") || tokens.get(0).startsWith("[-")))
            {
                // the continuation of a synopsis: options of the command named above
                if (context != null && foreign == null)
                {
                    for (int t = 0; t < tokens.size(); t++)
                    {
                        if (tokens.get(t).contains("--"))
                        {
                            t = options(new Where(file, first), context, tokens, t);
                        }
                    }
                }
                continue;
            }
            simpleCommands(new Where(file, first), line);
        }
    }

    /** A shell line: each simple command (split on ;, &&, ||, |, &) names its own tool. */
    private void simpleCommands(final Where where, final String line)
    {
        for (final String part : COMMAND_SEPARATOR.split(withoutComment(line)))
        {
            final List<String> tokens = tokens(part);
            int i = 0;
            while (i < tokens.size() &&
                (tokens.get(i).equals("sudo") || ENV_ASSIGNMENT.matcher(tokens.get(i)).matches()))
            {
                i++;
            }
            if (i >= tokens.size())
            {
                continue;
            }
            final String first = tokens.get(i);
            if (isRfmrt(first))
            {
                if (i + 1 < tokens.size() && tokens.get(i + 1).endsWith(":"))
                {
                    // output ("rfmrt check: sysroot /"), not a command line
                    continue;
                }
                foreign = null;
                context = invocation(where, tokens, i + 1);
            }
            else if (WORD.matcher(basename(first)).matches() || isForeign(first))
            {
                foreign = basename(first);
                context = null;
            }
        }
    }

    private static String withoutComment(final String line)
    {
        final Matcher m = COMMENT.matcher(line);
        return m.find() ? line.substring(0, m.start()) : line;
    }

    /** Walks {@code rfmrt a b --x v ...}; returns the deepest command named. */
    private Command invocation(final Where where, final List<String> tokens, final int from)
    {
        Command command = commands.get("");
        boolean positional = false;
        for (int i = from; i < tokens.size(); i++)
        {
            final String token = tokens.get(i);
            final String bare = token.replaceAll("^[\\[(]+|[\\])]+$", "");
            if (bare.startsWith("-"))
            {
                i = options(where, command, tokens, i);
                continue;
            }
            if (!positional && WORD.matcher(bare).matches())
            {
                final Command sub = commands.get(command.path().isEmpty() ? bare : command.path() + " " + bare);
                if (sub != null && sub.parent() == command)
                {
                    command = sub;
                    documentedCommands.putIfAbsent(command.path(), where);
                    continue;
                }
                if (command.spec().positionalParameters().isEmpty() && !command.spec().subcommands().isEmpty())
                {
                    problems.add(where + ": '" + display(command.path()) + " " + bare + "': " +
                        display(command.path()) + " has no command '" + bare + "'");
                    return command;
                }
            }
            if (command.spec().positionalParameters().isEmpty() && !bare.equals("...") && !bare.matches("[A-Z_]+"))
            {
                // not an argument this command takes: the rest is prose or output
                return command;
            }
            positional = positional || !command.spec().positionalParameters().isEmpty();
        }
        return command;
    }

    /** Records the options in tokens[i] (and skips the value of an option that takes one); returns the last index. */
    private int options(final Where where, final Command command, final List<String> tokens, final int i)
    {
        final String token = tokens.get(i);
        final Matcher m = OPTION.matcher(token);
        boolean takesValue = false;
        while (m.find())
        {
            final String name = m.group();
            documentedOptions.computeIfAbsent(command.path(), k -> new LinkedHashMap<>()).putIfAbsent(name, where);
            final OptionSpec option = command.spec().findOption(name);
            if (option == null)
            {
                problems.add(where + ": '" + display(command.path()) + " " + name + "': " + display(command.path()) +
                    " has no option " + name);
            }
            else
            {
                takesValue = option.arity().max() > 0 && !option.typeInfo().isBoolean();
            }
        }
        final boolean inlineValue = token.contains("=");
        if (takesValue && !inlineValue && !token.endsWith("]") && i + 1 < tokens.size() &&
            !tokens.get(i + 1).startsWith("-") && !tokens.get(i + 1).startsWith("[-"))
        {
            return i + 1;
        }
        return i;
    }

    private static List<String> tokens(final String text)
    {
        final List<String> tokens = new ArrayList<>();
        for (final String t : text.trim().split("\\s+"))
        {
            if (!t.isEmpty())
            {
                tokens.add(t);
            }
        }
        return tokens;
    }

    private static String firstWord(final List<String> tokens)
    {
        for (final String t : tokens)
        {
            if (!t.equals("$") && !t.equals("sudo") && !ENV_ASSIGNMENT.matcher(t).matches())
            {
                return t;
            }
        }
        return null;
    }

    private static String basename(final String word)
    {
        final int slash = word.lastIndexOf('/');
        return slash < 0 ? word : word.substring(slash + 1);
    }

    private static boolean isRfmrt(final String word)
    {
        // the program, or its launcher: ./rfmrt, /opt/rfmrt/bin/rfmrt (not a folder such as /var/lib/rfmrt)
        final String w = word.replaceAll("^[\"']+|[\"']+$", "");
        return w.equals("rfmrt") || w.equals("./rfmrt") || w.endsWith("/bin/rfmrt");
    }

    static boolean isForeign(final String word)
    {
        final String name = basename(word);
        return FOREIGN_TOOLS.contains(name) || name.matches("rfmrt-(isolate|irq-affinity|msix-plan)") ||
            name.endsWith(".sh") || name.endsWith(".bats");
    }

    private static List<Step> steps(final int blockStart, final List<String> block)
    {
        final List<Step> steps = new ArrayList<>();
        String command = null;
        int line = 0;
        int exit = 0;
        List<String> output = new ArrayList<>();
        for (int i = 0; i < block.size(); i++)
        {
            final String text = block.get(i);
            if (text.startsWith("$ "))
            {
                if (command != null)
                {
                    steps.add(new Step(line, command, exit, output));
                }
                String c = text.substring(2);
                line = blockStart + 1 + i;
                while (c.endsWith("\\") && i + 1 < block.size())
                {
                    c = c.substring(0, c.length() - 1) + " " + block.get(++i).trim();
                }
                final Matcher e = EXIT_COMMENT.matcher(c);
                exit = e.find() ? Integer.parseInt(e.group(1)) : 0;
                command = c;
                output = new ArrayList<>();
            }
            else if (command != null)
            {
                output.add(text);
            }
        }
        if (command != null)
        {
            steps.add(new Step(line, command, exit, output));
        }
        return steps;
    }

    /**
     * GitHub's anchors for the headings of a file: lower case, punctuation dropped, spaces to hyphens, a -N suffix
     * for repeats.
     */
    static Set<String> headingAnchors(final List<String> lines)
    {
        final Set<String> result = new LinkedHashSet<>();
        final Map<String, Integer> count = new LinkedHashMap<>();
        boolean inFence = false;
        for (final String line : lines)
        {
            if (FENCE.matcher(line).matches())
            {
                inFence = !inFence;
                continue;
            }
            final Matcher h = HEADING.matcher(line);
            if (inFence || !h.matches())
            {
                continue;
            }
            final String slug = h.group(1).trim().toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "").replace(' ', '-');
            final int n = count.merge(slug, 1, Integer::sum);
            result.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return result;
    }
}
