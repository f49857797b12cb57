package io.rfmrt.cli.replay;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Replay over the journals of one real demo run, damaged on purpose: nothing crashes, stalls or invents records,
 * every damaged region is reported, and replay writes nothing into what it reads. Ends with 1,000 seeded corruptions
 * (byte flips, truncations, zeroed pages, splices, garbage) replayed through the command line's entry point.
 */
public class DamagedJournalTest
{
    private static final long CASE_BOUND_MS = 20_000;
    private static final int FUZZ_CASES = Integer.getInteger("rfmrt.fuzz.cases", 1_000);

    private static Path base;
    private static Path plantFile;
    private static Path controllerFile;
    private static long cases;

    private Path work;

    @BeforeAll
    static void runDemo() throws Exception
    {
        base = Files.createTempDirectory("rfmrt-damage-");
        final Path simRoot = Path.of("/dev/shm", "rfmrt-damage-test-" + UUID.randomUUID());
        final Process demo = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, "demo", "--seconds", "2",
            "--json", "--out", base.resolve("demo").toString());
        final String output = new String(demo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(demo.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(demo.exitValue()).as(output).isZero();
        CliProcesses.removeTree(simRoot);
        plantFile = cq4(base.resolve("demo/journal/plant"));
        controllerFile = cq4(base.resolve("demo/journal/controller"));
    }

    @AfterAll
    static void removeDemo() throws IOException
    {
        CliProcesses.removeTree(base);
    }

    private static Path cq4(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    private record Result(int exit, String out, String err, long millis)
    {
    }

    private static Result replay(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final String[] all = new String[args.length + 1];
        all[0] = "replay";
        System.arraycopy(args, 0, all, 1, args.length);
        final long start = System.nanoTime();
        final int exit = Main.run(all, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(exit, out.toString(), err.toString(), (System.nanoTime() - start) / 1_000_000);
    }

    /** Copy a journal folder keeping its sparse pre-sized file sparse (only the written prefix is copied). */
    private static Path copyJournal(final Path from, final Path to) throws IOException
    {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from))
        {
            for (final Path f : files.toList())
            {
                final byte[] written = writtenPrefix(f);
                final Path target = to.resolve(f.getFileName());
                Files.write(target, written);
                try (RandomAccessFile raf = new RandomAccessFile(target.toFile(), "rw"))
                {
                    raf.setLength(Files.size(f));
                }
            }
        }
        return to;
    }

    private static byte[] writtenPrefix(final Path file) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r"))
        {
            final int length = (int)Math.min(raf.length(), 8 << 20);
            final byte[] bytes = new byte[length];
            raf.readFully(bytes);
            int end = length;
            while (end > 0 && bytes[end - 1] == 0)
            {
                end--;
            }
            return java.util.Arrays.copyOf(bytes, (end + 4095) & ~4095);
        }
    }

    private static void assertReportOrOneLine(final Result r, final String what)
    {
        assertThat(r.exit()).as(what + ": " + r.err()).isIn(0, 1);
        assertThat(r.out() + r.err()).as(what).doesNotContain("\tat ", "Exception", "internal error",
            "OutOfMemoryError");
        if (r.exit() == 0)
        {
            assertThat(r.out()).as(what).startsWith("replay ");
        }
        else
        {
            assertThat(r.err().lines().toList()).as(what).isNotEmpty().allMatch(l -> l.startsWith("rfmrt: "));
            assertThat(r.out()).as(what).isEmpty();
        }
        assertThat(r.millis()).as(what + " took " + r.millis() + " ms").isLessThan(CASE_BOUND_MS);
    }

    private Path damaged(final String name) throws IOException
    {
        work = base.resolve(name);
        copyJournal(plantFile.getParent(), work.resolve("journal/plant"));
        copyJournal(controllerFile.getParent(), work.resolve("journal/controller"));
        return work;
    }

    private static Path cq4In(final Path journal) throws IOException
    {
        return cq4(journal);
    }

    @Test
    void shouldReportRandomBytesInTheDataAndReadOn() throws IOException
    {
        final Path dir = damaged("bytes");
        final Path file = cq4In(dir.resolve("journal/plant"));
        final byte[] junk = new byte[200];
        new Random(4).nextBytes(junk);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(120_000);
            raf.write(junk);
        }
        final Result r = replay(dir.toString());
        assertReportOrOneLine(r, "200 random bytes");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("journal/plant (node 1):").contains("damaged: ").contains(file + ", record ")
            .contains("reading resumed at byte ");
        assertThat(r.out()).contains("journal/controller (node 2):");
    }

    @Test
    void shouldRecogniseEmptyTruncatedAndGarbageFilesAtOnce() throws IOException
    {
        for (final long size : new long[]{0, 4096, 65536})
        {
            final Path dir = damaged("cut-" + size);
            for (final String node : List.of("plant", "controller"))
            {
                try (RandomAccessFile raf = new RandomAccessFile(cq4In(dir.resolve("journal/" + node)).toFile(), "rw"))
                {
                    raf.setLength(size);
                }
            }
            final Result r = replay(dir.toString());
            assertReportOrOneLine(r, "truncated to " + size);
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.err().lines()).hasSize(2).allMatch(l -> l.contains("no readable record"));
            assertThat(r.millis()).as("well under a second's work, with room for a loaded machine").isLessThan(5_000);
        }
        final Path dir = damaged("garbage");
        final byte[] junk = new byte[1 << 20];
        new Random(5).nextBytes(junk);
        Files.write(cq4In(dir.resolve("journal/plant")), junk);
        final Result r = replay(dir.toString());
        assertReportOrOneLine(r, "1 MiB of garbage");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("journal/controller (node 2):").contains("no readable record")
            .contains("does not start with a Chronicle queue header");
    }

    @Test
    void shouldResumeAfterAZeroedPageAndNotStopSilentlyMidFile() throws IOException
    {
        final Path clean = damaged("clean");
        final Result whole = replay(clean.resolve("journal/plant").toString());
        assertThat(whole.exit()).isZero();
        final long records = records(whole.out());

        final Path dir = damaged("zeroed");
        final Path file = cq4In(dir.resolve("journal/plant"));
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(40 * 4096);
            raf.write(new byte[4096]);
        }
        final Result r = replay(dir.resolve("journal/plant").toString());
        assertReportOrOneLine(r, "zeroed page");
        assertThat(r.out()).contains("damaged: 1 region skipped").contains("byte ").contains("reading resumed at");
        final long read = records(r.out());
        assertThat(read).as("records after the page are read").isGreaterThan(records * 3 / 4).isLessThan(records);

        final Path first = damaged("zeroed-first");
        try (RandomAccessFile raf = new RandomAccessFile(cq4In(first.resolve("journal/plant")).toFile(), "rw"))
        {
            raf.write(new byte[4096]);
        }
        final Result f = replay(first.resolve("journal/plant").toString());
        assertReportOrOneLine(f, "zeroed first page");
        assertThat(f.out()).contains("does not start with a Chronicle queue header");
        assertThat(records(f.out())).isGreaterThan(records / 2);
    }

    private static long records(final String report)
    {
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\(node \\d+\\): ([0-9,]+) records")
            .matcher(report);
        assertThat(m.find()).as(report).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @Test
    void shouldGiveNoPhantomRecordForATruncatedLastRecord() throws IOException
    {
        final Path dir = damaged("tail");
        final Path file = cq4In(dir.resolve("journal/plant"));
        final byte[] written = writtenPrefix(file);
        int end = written.length;
        while (end > 0 && written[end - 1] == 0)
        {
            end--;
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(end - 40);
        }
        final Result r = replay(dir.resolve("journal/plant").toString());
        assertReportOrOneLine(r, "cut tail");
        assertThat(r.out()).doesNotContain("source 0").contains("cut short");
        final java.util.regex.Matcher span = java.util.regex.Pattern.compile("span ([0-9.]+) s").matcher(r.out());
        assertThat(span.find()).isTrue();
        assertThat(Double.parseDouble(span.group(1))).as("span of a 2 s run").isLessThan(10);
    }

    @Test
    void shouldNeverWriteIntoTheJournalsItReads() throws Exception
    {
        final Path dir = damaged("untouched");
        try (RandomAccessFile raf = new RandomAccessFile(cq4In(dir.resolve("journal/plant")).toFile(), "rw"))
        {
            raf.setLength(300_000);
        }
        final TreeMap<String, String> before = fingerprint(dir);
        assertThat(replay(dir.toString()).exit()).isZero();
        assertThat(replay(dir.toString(), "--json").exit()).isZero();
        assertThat(fingerprint(dir)).isEqualTo(before);
    }

    private static TreeMap<String, String> fingerprint(final Path dir) throws Exception
    {
        final TreeMap<String, String> map = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir))
        {
            for (final Path f : files.filter(Files::isRegularFile).toList())
            {
                final MessageDigest md = MessageDigest.getInstance("SHA-256");
                md.update(Files.readAllBytes(f));
                map.put(dir.relativize(f).toString(), Files.size(f) + " " + Files.getLastModifiedTime(f) + " " +
                    HexFormat.of().formatHex(md.digest()));
            }
        }
        return map;
    }

    @Test
    void shouldReportAnUnreadableJournalDirAndStillReadTheOthers() throws Exception
    {
        assumeTrue((Integer)Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0 &&
            Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs root to act as the user nobody");
        final Path dir = Files.createTempDirectory(Path.of("/tmp"), "rfmrt-unreadable-");
        try
        {
            copyJournal(plantFile.getParent(), dir.resolve("journal/plant"));
            copyJournal(controllerFile.getParent(), dir.resolve("journal/controller"));
            Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            try (Stream<Path> all = Files.walk(dir.resolve("journal")))
            {
                for (final Path p : all.toList())
                {
                    Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString(
                        Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
            Files.setPosixFilePermissions(dir.resolve("journal/controller"),
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            final List<String> command = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=65534",
                "--regid=65534", "--clear-groups"));
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(CliProcesses.childJvmFlags());
            final Path tmp = Files.createDirectory(dir.resolve("tmp"));
            Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
            command.addAll(List.of("-Djava.io.tmpdir=" + tmp, "-cp", readableClasspath(dir.resolve("cp")),
                Main.class.getName(), "replay", dir.toString()));
            final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(output).isZero();
            assertThat(output).contains("journal/plant (node 1):")
                .contains("journal/controller: not read: journal dir " + dir.resolve("journal/controller") +
                    ": cannot be listed: permission denied")
                .doesNotContain("\tat ");
        }
        finally
        {
            CliProcesses.removeTree(dir);
        }
    }

    /** The test classpath copied where the user nobody can read it (the build's own folders may not be). */
    public static String readableClasspath(final Path into) throws IOException
    {
        final List<String> entries = new ArrayList<>();
        Files.createDirectories(into);
        int n = 0;
        for (final String entry : System.getProperty("rfmrt.test.classpath", System.getProperty("java.class.path"))
            .split(java.io.File.pathSeparator))
        {
            if (entry.isBlank() || !Files.exists(Path.of(entry)))
            {
                continue;
            }
            final Path from = Path.of(entry);
            final Path to = into.resolve(n++ + "-" + from.getFileName());
            if (Files.isDirectory(from))
            {
                try (Stream<Path> tree = Files.walk(from))
                {
                    for (final Path f : tree.toList())
                    {
                        Files.copy(f, to.resolve(from.relativize(f).toString()));
                    }
                }
            }
            else
            {
                Files.copy(from, to);
            }
            entries.add(to.toString());
        }
        try (Stream<Path> all = Files.walk(into))
        {
            for (final Path p : all.toList())
            {
                Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString(
                    Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    @Test
    void shouldSurviveAThousandSeededCorruptions() throws Exception
    {
        final Path dir = damaged("fuzz");
        final Path journal = dir.resolve("journal/plant");
        final Path file = cq4In(journal);
        final byte[] original = writtenPrefix(file);
        final long size = Files.size(file);
        final byte[] other = writtenPrefix(cq4In(dir.resolve("journal/controller")));
        final int[] exits = new int[3];
        final TreeMap<String, Integer> kinds = new TreeMap<>();
        long longest = 0;
        String longestCase = "";
        int viaProcess = 0;
        long corruptNanos = 0;
        long replayMillis = 0;
        for (int i = 0; i < FUZZ_CASES; i++)
        {
            final Random random = new Random(1_000_003L * i + 17);
            final long t0 = System.nanoTime();
            final String kind = corrupt(file, original, other, size, random, i);
            corruptNanos += System.nanoTime() - t0;
            kinds.merge(kind, 1, Integer::sum);
            final Result r;
            if (i % 200 == 7)
            {
                r = replayInChild(journal);
                viaProcess++;
            }
            else
            {
                r = replay(journal.toString());
            }
            assertReportOrOneLine(r, "case " + i + " (" + kind + ")");
            exits[r.exit()]++;
            replayMillis += r.millis();
            if (r.millis() > longest)
            {
                longest = r.millis();
                longestCase = i + " (" + kind + ")";
            }
            cases++;
        }
        final String summary = String.format("journal fuzz: %d cases %s, %d of them in a child JVM; exit 0: %d, " +
            "exit 1: %d; longest %d ms (case %s); replays %d ms, damaging %d ms in all", cases, kinds, viaProcess,
            exits[0], exits[1], longest, longestCase, replayMillis, corruptNanos / 1_000_000);
        System.out.println(summary);
        Files.writeString(Path.of("target", "journal-fuzz.txt"), summary + System.lineSeparator());
        assertThat(exits[0] + exits[1]).isEqualTo(FUZZ_CASES);
    }

    private static Result replayInChild(final Path journal) throws IOException, InterruptedException
    {
        final long start = System.nanoTime();
        final Process p = CliProcesses.start(base, ProcessBuilder.Redirect.PIPE, "replay", journal.toString());
        final byte[] err = p.getErrorStream().readAllBytes();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out, new String(err, StandardCharsets.UTF_8),
            (System.nanoTime() - start) / 1_000_000);
    }

    /** Restore the file, then damage it one way chosen by {@code random}; returns the way. */
    private static String corrupt(final Path file, final byte[] original, final byte[] other, final long size,
        final Random random, final int i) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(0);
            raf.write(original);
            raf.setLength(size);
            final int data = original.length;
            switch (i % 5)
            {
                case 0 ->
                {
                    final int flips = 1 + random.nextInt(200);
                    for (int k = 0; k < flips; k++)
                    {
                        raf.seek(random.nextInt(data));
                        raf.write(random.nextInt(256));
                    }
                    return "byte flips";
                }
                case 1 ->
                {
                    final long[] fixed = {0, 4096, 65536};
                    raf.setLength(i % 25 == 1 ? fixed[(i / 25) % 3] : random.nextInt(data + 64));
                    return "truncation";
                }
                case 2 ->
                {
                    final int pages = 1 + random.nextInt(3);
                    for (int k = 0; k < pages; k++)
                    {
                        raf.seek((long)random.nextInt(data / 4096) * 4096);
                        raf.write(new byte[4096]);
                    }
                    return "zeroed pages";
                }
                case 3 ->
                {
                    // the other node's journal from some offset spliced in at another
                    final int from = random.nextInt(other.length);
                    final int at = random.nextInt(data);
                    final int length = Math.min(other.length - from, 1 + random.nextInt(64 << 10));
                    raf.seek(at);
                    raf.write(other, from, length);
                    if (random.nextBoolean())
                    {
                        raf.setLength(at + length);
                    }
                    return "splices";
                }
                default ->
                {
                    final byte[] junk = new byte[1 + random.nextInt(i % 50 == 4 ? 1 << 20 : 4096)];
                    random.nextBytes(junk);
                    raf.seek(i % 50 == 4 ? 0 : random.nextInt(data));
                    raf.write(junk);
                    return "garbage";
                }
            }
        }
    }
}
