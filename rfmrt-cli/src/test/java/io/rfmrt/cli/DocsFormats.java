package io.rfmrt.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The lines the programs can print today, read from their sources: every format string of a {@code printf},
 * {@code format}, {@code formatted}, every string a {@code print}/{@code println}/{@code append} builds (literal
 * parts kept, the rest any text), every {@code key value} line of a summary table ({@code put("key", ...)} or
 * {@code {"key", "%s"}}), and the {@code printf} formats of the tuning scripts. Each becomes a pattern over one
 * line with its white space collapsed; an output block's line must match one of them, so a column added, dropped,
 * renamed or moved in the code, or a column the code never printed, fails the docs check. Test code for
 * {@link DocsCheckTest}.
 */
final class DocsFormats
{
    private static final String LITERAL = "\"[^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+\"";
    private static final Pattern FORMAT_CALL = Pattern.compile(
        "\\b(?:printf|format)\\(\\s*(?:Locale\\.ROOT\\s*,\\s*)?((?:" + LITERAL + "\\s*\\+?\\s*)+)(?=[,)])");
    private static final Pattern CONCATENATION = Pattern.compile(LITERAL + "(?:\\s*\\+\\s*" + LITERAL + ")*");
    /** Any call: a line is often built in one argument (print, a log's warn, an error's message). */
    private static final Pattern PRINT_CALL = Pattern.compile("\\b\\w+\\(");
    private static final Pattern CONSTANT =
        Pattern.compile("static final String \\w+\\s*=\\s*(" + LITERAL + "(?:\\s*\\+\\s*" + LITERAL + ")*)\\s*;");
    private static final Pattern SHELL_PRINTF_ARGS =
        Pattern.compile("printf\\s+(?:--\\s+)?'([^']*)'((?: +(?:[A-Za-z][\\w/()%.-]*|\"\\$\\w+\"))+) *$", Pattern.MULTILINE);
    private static final Pattern APPEND_CHAIN =
        Pattern.compile("append\\(\\s*(" + LITERAL + ")\\s*\\)\\s*\\.append\\(");
    private static final Pattern KEY = Pattern.compile("(?:\\{|put\\()\\s*\"([a-z][a-z0-9_]*)\"\\s*,");
    private static final Pattern STRING = Pattern.compile(LITERAL);
    private static final Pattern CONVERSION = Pattern.compile("%([-#+ 0,(]*)(\\d+)?(\\.\\d+)?([a-zA-Z%])");
    private static final Pattern SHELL_PRINTF = Pattern.compile("printf\\s+(?:--\\s+)?'([^']*)'");
    private static final String NUMBER =
        "(?:[-+]?+(?:\\d++(?:,\\d{3})*+(?:\\.\\d++)?+|\\.\\d++)(?:[eE][-+]?\\d++)?+|NaN|-?Infinity|-|n/a|null)";
    /** Steps a pattern may take over one line before it counts as no match (patterns of many %s backtrack). */
    private static final int STEPS_PER_MATCH = 200_000;
    private static final Object ANY = new Regex(".*?", false);
    /** A clock time that a log line starts with (the bridge's log): a prefix, not part of the message's format. */
    private static final Pattern LOG_TIME = Pattern.compile("^\\d{2}:\\d{2}:\\d{2}\\.\\d{3} ");

    /** A line's pattern and the longest literal text it needs, to skip most patterns without running them. */
    private record Template(Pattern pattern, String needs)
    {
    }

    private final List<Template> templates = new ArrayList<>();
    private final Set<String> regexes = new LinkedHashSet<>();
    /** Each source file's string literals in order: a table's header is often its column names, one literal each. */
    private final List<List<String>> literalRuns = new ArrayList<>();
    final Set<String> exact = new LinkedHashSet<>();

    /**
     * @param javaRoots folders of Java sources, read recursively.
     * @param scripts   shell scripts whose {@code printf} formats count too.
     */
    DocsFormats(final List<Path> javaRoots, final List<Path> scripts)
    {
        for (final Path root : javaRoots)
        {
            try (Stream<Path> files = Files.walk(root))
            {
                files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(this::readJava);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        for (final Path script : scripts)
        {
            final String text = read(script);
            final Matcher m = SHELL_PRINTF.matcher(text);
            while (m.find())
            {
                addFormat(m.group(1).replace("\\n", "%n").replace("\\t", " "));
            }
            final Matcher header = SHELL_PRINTF_ARGS.matcher(text);
            while (header.find())
            {
                final List<String> args = new ArrayList<>();
                for (final String word : header.group(2).trim().split(" +"))
                {
                    if (!word.startsWith("\"$"))
                    {
                        // a computed width ("$w" for a %-*s) is not printed
                        args.add('"' + word + '"');
                    }
                }
                addFormat(withLiteralArguments(header.group(1).replace("*", "1").replace("\\n", "%n")
                    .replace("\\t", " "), args));
            }
        }
    }

    /** @return whether a line of an output block is one the programs print (white space does not count). */
    boolean matches(final String line)
    {
        final String collapsed = LOG_TIME.matcher(collapse(line)).replaceFirst("");
        if (exact.contains(collapsed))
        {
            return true;
        }
        final boolean header = Stream.of(collapsed.split(" ")).noneMatch(t -> t.matches(NUMBER));
        if (matchesOne(collapsed, header))
        {
            return true;
        }
        // a line that two formats print one after the other (a builder appends an optional part): both with words
        for (final Template t : templates)
        {
            if (t.needs().length() < 3 || !collapsed.contains(t.needs()))
            {
                continue;
            }
            try
            {
                final Matcher m = t.pattern().matcher(new Budget(collapsed));
                if (m.lookingAt() && m.end() > 0 && m.end() < collapsed.length() &&
                    matchesOne(collapsed.substring(m.end()).trim(), true))
                {
                    return true;
                }
            }
            catch (final BudgetSpent ignored)
            {
                // no match within the budget
            }
        }
        return false;
    }

    private boolean matchesOne(final String collapsed, final boolean withWords)
    {
        if (exact.contains(collapsed) || (withWords && columnNames(collapsed)) || literalsInOrder(collapsed))
        {
            return true;
        }
        for (final Template t : templates)
        {
            if ((!withWords || t.needs().length() >= 3) && collapsed.contains(t.needs()) &&
                matchesWithin(t.pattern(), collapsed))
            {
                return true;
            }
        }
        return false;
    }

    /** A header printed with a computed width: its column names are consecutive literals of one source, in order. */
    private boolean columnNames(final String header)
    {
        for (final List<String> run : literalRuns)
        {
            for (int i = 0; i < run.size(); i++)
            {
                if (run.get(i).isEmpty() || !header.startsWith(run.get(i)))
                {
                    continue;
                }
                final StringBuilder joined = new StringBuilder(run.get(i));
                for (int j = i + 1; j < run.size() && joined.length() < header.length(); j++)
                {
                    joined.append(' ').append(run.get(j));
                }
                if (joined.toString().equals(header) && run.get(i).split(" ").length < header.split(" ").length)
                {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A line an expression builds from literals and values ({@code "started (pid " + pid + ", host id " + id + ")"}):
     * it starts with a literal of one source, and that source's next literals follow in it, in order, each after at
     * most one value, to its end.
     */
    private boolean literalsInOrder(final String line)
    {
        for (final List<String> run : literalRuns)
        {
            for (int i = 0; i < run.size(); i++)
            {
                final String first = run.get(i).trim();
                if (first.length() < 3 || !line.startsWith(first))
                {
                    continue;
                }
                int p = first.length();
                int letters = first.replaceAll("[^A-Za-z]", "").length();
                for (int j = i + 1; j < run.size() && p < line.length(); j++)
                {
                    final String next = run.get(j).trim();
                    if (next.isEmpty())
                    {
                        continue;
                    }
                    final int at = line.indexOf(next, p);
                    // between two literals one value: no white space in it beyond the literals' own
                    if (at < 0 || line.substring(p, at).trim().contains(" "))
                    {
                        break;
                    }
                    p = at + next.length();
                    letters += next.replaceAll("[^A-Za-z]", "").length();
                }
                final String tail = line.substring(p).trim();
                if (letters >= 8 && !tail.contains(" "))
                {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean matchesWithin(final Pattern pattern, final String line)
    {
        try
        {
            return pattern.matcher(new Budget(line)).matches();
        }
        catch (final BudgetSpent ex)
        {
            return false;
        }
    }

    /** Ends a match that backtracks too long. */
    private static final class BudgetSpent extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        BudgetSpent()
        {
            super(null, null, false, false);
        }
    }

    /** A line that counts how often the matcher reads it. */
    private static final class Budget implements CharSequence
    {
        private final String text;
        private int steps;

        Budget(final String text)
        {
            this.text = text;
        }

        @Override
        public char charAt(final int index)
        {
            if (++steps > STEPS_PER_MATCH)
            {
                throw new BudgetSpent();
            }
            return text.charAt(index);
        }

        @Override
        public int length()
        {
            return text.length();
        }

        @Override
        public CharSequence subSequence(final int start, final int end)
        {
            return text.subSequence(start, end);
        }

        @Override
        public String toString()
        {
            return text;
        }
    }

    static String collapse(final String line)
    {
        return line.trim().replaceAll("\\s+", " ");
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void readJava(final Path file)
    {
        final String source = withoutCommentsAndChars(read(file));
        final Matcher call = FORMAT_CALL.matcher(source);
        while (call.find())
        {
            final String format = literals(call.group(1));
            addFormat(format);
            final int open = source.indexOf('(', call.start());
            final String all = arguments(source, open);
            final String args = all == null ? null : all.substring(Math.min(all.length(), call.end() - open - 1));
            if (args != null && args.startsWith(",") &&
                args.substring(1).matches("\\s*(?:" + LITERAL + "\\s*,?\\s*)+"))
            {
                addExact(format, args);
            }
            else if (args != null && args.startsWith(","))
            {
                addFormat(withLiteralArguments(format, topLevel(args.substring(1))));
            }
        }
        final Matcher concatenation = CONCATENATION.matcher(source);
        while (concatenation.find())
        {
            final String text = literals(concatenation.group());
            if (CONVERSION.matcher(text).find())
            {
                // a format string wherever it is used: printf, String.format, a helper that formats
                addFormat(text);
            }
        }
        final Matcher print = PRINT_CALL.matcher(source);
        while (print.find())
        {
            final String args = arguments(source, print.end() - 1);
            if (args != null)
            {
                addConcatenation(args);
            }
        }
        final Matcher constant = CONSTANT.matcher(source);
        while (constant.find())
        {
            addLine(new ArrayList<>(List.of(literals(constant.group(1)))));
        }
        final List<String> all = new ArrayList<>();
        final Matcher literal = STRING.matcher(source);
        while (literal.find())
        {
            all.add(collapse(unescape(literal.group().substring(1, literal.group().length() - 1))));
        }
        literalRuns.add(all);
        final Matcher chain = APPEND_CHAIN.matcher(source);
        while (chain.find())
        {
            addLine(new ArrayList<>(List.of(literals(chain.group(1)), ANY)));
        }
        final Matcher key = KEY.matcher(source);
        while (key.find())
        {
            // a summary line: the key, then a value of at most three words (a number, its unit), or a {map} or [list]
            templates.add(new Template(Pattern.compile(Pattern.quote(key.group(1)) +
                "(?: \\S++(?: \\S++){0,2}| \\{.*\\}| \\[.*\\])?"), key.group(1)));
        }
    }

    /** The arguments of a call, split at its top-level commas. */
    private static List<String> topLevel(final String args)
    {
        final List<String> result = new ArrayList<>();
        int depth = 0;
        int start = 0;
        boolean inString = false;
        for (int i = 0; i < args.length(); i++)
        {
            final char c = args.charAt(i);
            if (inString)
            {
                if (c == '\\')
                {
                    i++;
                }
                else if (c == '"')
                {
                    inString = false;
                }
            }
            else if (c == '"')
            {
                inString = true;
            }
            else if (c == '(' || c == '[' || c == '{')
            {
                depth++;
            }
            else if (c == ')' || c == ']' || c == '}')
            {
                depth--;
            }
            else if (c == ',' && depth == 0)
            {
                result.add(args.substring(start, i).trim());
                start = i + 1;
            }
        }
        result.add(args.substring(start).trim());
        return result;
    }

    /** A format with each conversion whose argument is a string literal replaced by that literal, as printed. */
    private static String withLiteralArguments(final String format, final List<String> args)
    {
        final StringBuilder sb = new StringBuilder();
        final Matcher c = CONVERSION.matcher(format);
        int last = 0;
        int arg = 0;
        while (c.find())
        {
            sb.append(format, last, c.start());
            last = c.end();
            final char kind = c.group(4).charAt(0);
            if (kind == 'n' || kind == '%' || arg >= args.size())
            {
                sb.append(c.group());
                continue;
            }
            final String a = args.get(arg++);
            if (kind == 's' && a.matches(LITERAL))
            {
                sb.append(String.format(Locale.ROOT, c.group(), unescape(a.substring(1, a.length() - 1)))
                    .replace("%", "%%"));
            }
            else
            {
                sb.append(c.group());
            }
        }
        return sb.append(format.substring(last)).toString();
    }

    /** The source with comments and char literals blanked out (same length), so that only strings hold quotes. */
    private static String withoutCommentsAndChars(final String source)
    {
        final char[] out = source.toCharArray();
        int i = 0;
        while (i < out.length)
        {
            final char c = out[i];
            final char next = i + 1 < out.length ? out[i + 1] : 0;
            if (c == '"')
            {
                i++;
                while (i < out.length && out[i] != '"')
                {
                    i += out[i] == '\\' ? 2 : 1;
                }
                i++;
            }
            else if (c == '/' && next == '/')
            {
                while (i < out.length && out[i] != '\n')
                {
                    out[i++] = ' ';
                }
            }
            else if (c == '/' && next == '*')
            {
                while (i < out.length && !(out[i] == '*' && i + 1 < out.length && out[i + 1] == '/'))
                {
                    out[i] = out[i] == '\n' ? '\n' : ' ';
                    i++;
                }
                for (int k = 0; k < 2 && i < out.length; k++)
                {
                    out[i++] = ' ';
                }
            }
            else if (c == '\'')
            {
                out[i++] = ' ';
                while (i < out.length && out[i] != '\'')
                {
                    if (out[i] == '\\')
                    {
                        out[i++] = ' ';
                    }
                    out[i++] = ' ';
                }
                if (i < out.length)
                {
                    out[i++] = ' ';
                }
            }
            else
            {
                i++;
            }
        }
        return new String(out);
    }

    /** The text between the parenthesis at open and its match; null when it does not close. */
    private static String arguments(final String source, final int open)
    {
        int depth = 0;
        boolean inString = false;
        for (int i = open; i < source.length(); i++)
        {
            final char c = source.charAt(i);
            if (inString)
            {
                if (c == '\\')
                {
                    i++;
                }
                else if (c == '"')
                {
                    inString = false;
                }
            }
            else if (c == '"')
            {
                inString = true;
            }
            else if (c == '(')
            {
                depth++;
            }
            else if (c == ')' && --depth == 0)
            {
                return source.substring(open + 1, i);
            }
        }
        return null;
    }

    private static String literals(final String concatenation)
    {
        final StringBuilder sb = new StringBuilder();
        final Matcher m = STRING.matcher(concatenation);
        while (m.find())
        {
            sb.append(unescape(m.group().substring(1, m.group().length() - 1)));
        }
        return sb.toString();
    }

    private static String unescape(final String s)
    {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length())
            {
                sb.append(c);
                continue;
            }
            final char n = s.charAt(++i);
            switch (n)
            {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'u' ->
                {
                    sb.append((char)Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> sb.append(n);
            }
        }
        return sb.toString();
    }

    /** A {@code print} argument: literal parts kept, every other operand any text. */
    private void addConcatenation(final String expression)
    {
        if (!expression.contains("\""))
        {
            return;
        }
        if (expression.contains("?"))
        {
            // a choice of lines: each whole literal of it is one
            final Matcher m = Pattern.compile("[?:]\\s*(" + LITERAL + ")\\s*(?=[:)]|$)").matcher(expression);
            while (m.find())
            {
                addLine(new ArrayList<>(List.of(unescape(m.group(1).substring(1, m.group(1).length() - 1)))));
            }
            return;
        }
        final List<String> operands = new ArrayList<>();
        int depth = 0;
        int start = 0;
        boolean inString = false;
        for (int i = 0; i < expression.length(); i++)
        {
            final char c = expression.charAt(i);
            if (inString)
            {
                if (c == '\\')
                {
                    i++;
                }
                else if (c == '"')
                {
                    inString = false;
                }
                continue;
            }
            if (c == '"')
            {
                inString = true;
            }
            else if (c == '(' || c == '[' || c == '{')
            {
                depth++;
            }
            else if (c == ')' || c == ']' || c == '}')
            {
                depth--;
            }
            else if (c == ',' && depth == 0)
            {
                return;
            }
            else if (c == '+' && depth == 0)
            {
                operands.add(expression.substring(start, i).trim());
                start = i + 1;
            }
        }
        operands.add(expression.substring(start).trim());
        List<Object> line = new ArrayList<>();
        for (final String operand : operands)
        {
            if (!operand.matches(LITERAL))
            {
                line.add(ANY);
                continue;
            }
            final String[] parts = unescape(operand.substring(1, operand.length() - 1)).split("\n", -1);
            for (int k = 0; k < parts.length; k++)
            {
                if (k > 0)
                {
                    addLine(line);
                    line = new ArrayList<>();
                }
                line.add(parts[k]);
            }
        }
        addLine(line);
    }

    /** A format string: each line of it a pattern; numeric conversions one number, right-aligned %Ns one word. */
    private void addFormat(final String format)
    {
        for (final String text : format.replace("%n", "\n").split("\n", -1))
        {
            final List<Object> line = new ArrayList<>();
            final Matcher c = CONVERSION.matcher(text);
            int last = 0;
            while (c.find())
            {
                line.add(text.substring(last, c.start()));
                line.add(conversion(c));
                last = c.end();
            }
            line.add(text.substring(last));
            addLine(line);
        }
    }

    /**
     * One line of a template: literal text (String) and patterns (Regex); literal white space collapses to one space,
     * a line's edges are trimmed, and a line with fewer than 3 literal letters says too little to hold anything to.
     */
    private void addLine(final List<Object> parts)
    {
        final StringBuilder literalText = new StringBuilder();
        final List<Object> cleaned = new ArrayList<>();
        for (final Object part : parts)
        {
            if (part instanceof String text)
            {
                final String collapsed = text.replace('\t', ' ').replaceAll(" {2,}", " ");
                literalText.append(collapsed);
                cleaned.add(collapsed);
            }
            else
            {
                cleaned.add(part);
            }
        }
        final long padded = cleaned.stream().filter(p -> p instanceof Regex r && r.padded()).count();
        if (literalText.toString().replaceAll("[^A-Za-z]", "").length() < 3 && padded < 3)
        {
            // too little to hold a line to: no words of its own, and no table row
            return;
        }
        String needs = "";
        final StringBuilder regex = new StringBuilder();
        for (int i = 0; i < cleaned.size(); i++)
        {
            final Object part = cleaned.get(i);
            if (part instanceof String text)
            {
                String t = text;
                if (i == 0)
                {
                    t = t.stripLeading();
                }
                if (i == cleaned.size() - 1)
                {
                    t = t.stripTrailing();
                }
                if (!t.isEmpty())
                {
                    regex.append(Pattern.quote(t));
                    needs = t.trim().length() > needs.length() ? t.trim() : needs;
                }
            }
            else
            {
                regex.append(((Regex)part).regex());
            }
        }
        if (regexes.add(regex.toString()))
        {
            templates.add(new Template(Pattern.compile(regex.toString()), needs));
        }
    }

    /** A pattern inside a template line. */
    private record Regex(String regex, boolean padded)
    {
    }

    private static Regex conversion(final Matcher c)
    {
        final String flags = c.group(1);
        final boolean width = c.group(2) != null;
        final char kind = c.group(4).charAt(0);
        final String regex = switch (kind)
        {
            case '%' -> "%";
            case 'd', 'f', 'e', 'g', 'E', 'G' -> NUMBER;
            case 'x', 'X' -> "[0-9a-fA-F]+";
            case 'c' -> ".";
            // right-aligned: a value, one word; left-aligned: a label, whose words after the first are no numbers
            default -> !width ? ".*?" : flags.contains("-") ? "\\S++(?: [^\\d\\s]\\S*+)*?" : "\\S++";
        };
        return new Regex(regex, width && kind != '%');
    }

    private void addExact(final String format, final String args)
    {
        final List<Object> values = new ArrayList<>();
        final Matcher m = STRING.matcher(args);
        while (m.find())
        {
            values.add(unescape(m.group().substring(1, m.group().length() - 1)));
        }
        try
        {
            for (final String line : String.format(Locale.ROOT, format, values.toArray()).split("\n", -1))
            {
                if (!line.isBlank())
                {
                    exact.add(collapse(line));
                }
            }
        }
        catch (final IllegalFormatException ignored)
        {
            // not every argument was a literal after all: the pattern stands
        }
    }
}
