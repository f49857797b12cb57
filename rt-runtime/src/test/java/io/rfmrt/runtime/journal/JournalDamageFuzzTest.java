package io.rfmrt.runtime.journal;

import io.rfmrt.runtime.journal.internal.JournalRecordDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded damage to one journal file, read back by {@link JournalReader}, offline and live: blocks of random bytes of
 * 4 KiB to 4 MiB inserted at random offsets (any alignment), 4 KiB pages copied over other pages of the same file,
 * bits flipped in record headers, and thousands of bits flipped anywhere. The property: every record outside the
 * damaged bytes is read, byte for byte, at its place; the damage is reported with a byte range that covers it and
 * ends where the first record after it starts; nothing read carries a value out of its range. A failing case names
 * its seed; {@code -Drfmrt.journal.fuzz.seed=N} runs that seed alone (with {@code -Drfmrt.journal.fuzz.cases} above
 * N). The journal file is the same bytes on every run; {@code -Drfmrt.journal.fuzz.layout=L} writes another one.
 */
class JournalDamageFuzzTest
{
    private static final int NODE_ID = 9;
    private static final int CASES = Integer.getInteger("rfmrt.journal.fuzz.cases", 120);
    private static final Integer ONLY_SEED = Integer.getInteger("rfmrt.journal.fuzz.seed");
    /** The order the file's three streams of records are merged in: another value gives another file. */
    private static final long LAYOUT_SEED = Long.getLong("rfmrt.journal.fuzz.layout", 7L);
    private static final int PAGE = 4096;
    private static final int TAIL = 64 << 10;
    private static final Pattern NOTE = Pattern.compile(
        "byte (\\d+): .*; (?:reading resumed at byte (\\d+)(?:, inside the record read before it .*)?|" +
        "nothing readable after it in this file)$");

    @TempDir
    static Path temp;

    private static byte[] original;
    private static final List<Original> RECORDS = new ArrayList<>();
    private static String fileName;
    private static int firstData;
    private static int writtenEnd;

    private record Original(int position, byte[] bytes)
    {
        int end()
        {
            return position + Integer.BYTES + bytes.length;
        }
    }

    private record Read(int position, byte[] bytes, String line)
    {
    }

    private record Note(long from, long to, String line)
    {
    }

    private record Outcome(List<Read> records, List<Note> notes, long damageCount)
    {
    }

    @BeforeAll
    static void writeJournal() throws IOException
    {
        final Path dir = temp.resolve("original");
        // three streams of records (frames, control, heartbeat) merged in a seeded order and written by one writer
        // with fixed clocks: the file is the same bytes on every run, so a seed names one case for good (a journal
        // fed by several writers interleaves them as its drainer finds them and stamps them with its own clock)
        final List<List<Consumer<JournalWriter>>> streams = List.of(new ArrayList<>(), new ArrayList<>(),
            new ArrayList<>());
        final Random random = new Random(42);
        final long base = 1_000_000_000_000L;
        for (int i = 1; i <= 4_000; i++)
        {
            final long t = base + i * 1_000_000L;
            final int seq = i;
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[random.nextInt(200)]);
            for (int b = 0; b < payload.capacity(); b++)
            {
                payload.putByte(b, (byte)random.nextInt(256));
            }
            streams.get(0).add(w -> retry(() -> w.frame(seq, 2, 0, seq * 31, t, t + 9_000, t + 11_000, t + 14_000,
                t + 20_000, payload, 0, payload.capacity())));
            streams.get(1).add(w -> retry(() -> w.sample(1, t + 25_000, seq, 3, seq * 0.5, -seq, 1e-3, 0, 7.25,
                seq)));
            if (i % 100 == 0)
            {
                final long[] counters = new long[40];
                Arrays.fill(counters, i);
                streams.get(2).add(w -> retry(() -> w.counters(t + 30_000, counters, counters.length)));
                streams.get(1).add(w -> retry(() -> w.state(seq % 4, (seq + 1) % 4, t + 31_000)));
            }
            if (i % 450 == 0)
            {
                streams.get(1).add(w -> retry(() -> w.fault(5, seq, -1, t + 32_000)));
            }
        }
        try (Journal journal = Journal.start(JournalConfig.of(dir, NODE_ID), () -> 5_000_000_000L,
            () -> 1_796_000_000_000L))
        {
            final JournalWriter writer = journal.newWriter("all");
            final Random order = new Random(LAYOUT_SEED);
            final int[] next = new int[streams.size()];
            int left = streams.stream().mapToInt(List::size).sum();
            while (left > 0)
            {
                final int s = order.nextInt(streams.size());
                // a run of one to four records of one stream, as a drainer takes what a ring holds
                for (int run = 1 + order.nextInt(4); run > 0 && next[s] < streams.get(s).size(); run--)
                {
                    streams.get(s).get(next[s]++).accept(writer);
                    left--;
                }
            }
        }
        final Path file;
        try (Stream<Path> files = Files.list(dir))
        {
            file = files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        fileName = file.getFileName().toString();
        final byte[] all = Files.readAllBytes(file);
        try (JournalReader reader = JournalReader.open(dir))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                RECORDS.add(new Original((int)reader.position(), Arrays.copyOf(record.buffer().byteArray(),
                    record.length())));
            }
            assertThat(reader.damageCount()).isZero();
        }
        assertThat(RECORDS).hasSizeGreaterThan(8_000);
        firstData = RECORDS.get(0).position();
        writtenEnd = RECORDS.get(RECORDS.size() - 1).end();
        original = Arrays.copyOf(all, writtenEnd);
    }

    static void retry(final BooleanSupplier write)
    {
        while (!write.getAsBoolean())
        {
            Thread.onSpinWait();
        }
    }

    @Test
    void shouldRuleOutPositionsByTheVersionsTheReaderReads()
    {
        // JournalReader rules out eight positions at once by their version byte: 2 or 3, (v & 0xFE) == 2
        for (int v = 0; v < 256; v++)
        {
            assertThat(JournalRecordDescriptor.readable(v)).as("version " + v).isEqualTo((v & 0xFE) == 2);
        }
    }

    @Test
    void shouldReadEveryRecordAroundSeededDamageAndReportItsBytes() throws IOException
    {
        final Map<String, long[]> shapes = new TreeMap<>();
        final Map<String, Integer> damagedReadAsData = new HashMap<>();
        for (int seed = 0; seed < CASES; seed++)
        {
            if (ONLY_SEED != null && seed != ONLY_SEED)
            {
                continue;
            }
            final String shape = switch (seed % 4)
            {
                case 0 -> "inserted garbage";
                case 1 -> "copied page";
                case 2 -> "header bit flips";
                default -> "10,000 bit flips";
            };
            final String what = "seed " + seed + " (" + shape + "; -Drfmrt.journal.fuzz.seed=" + seed + ")";
            final Random random = new Random(seed * 7_919L + 1);
            final Path dir = temp.resolve("case-" + seed);
            Files.createDirectories(dir);
            final long[] stats = shapes.computeIfAbsent(shape, k -> new long[4]);
            final int misread = switch (seed % 4)
            {
                case 0 -> insertedGarbage(dir, random, what, stats);
                case 1 -> copiedPage(dir, random, what, stats);
                case 2 -> headerFlips(dir, random, what, stats);
                default -> manyFlips(dir, random, what, stats);
            };
            if (misread >= 0)
            {
                damagedReadAsData.merge(shape, misread, Integer::sum);
            }
            stats[0]++;
            removeTree(dir);
        }
        final StringBuilder summary = new StringBuilder("journal damage fuzz over " + RECORDS.size() +
            " records (" + writtenEnd + " bytes):");
        shapes.forEach((shape, s) -> summary.append(String.format("%n  %-17s %3d cases, read in %6.1f ms " +
            "(live %6.1f ms) per case, %,d bytes damaged in all, damaged records read as data: %s", shape, s[0],
            s[1] / 1e6 / s[0], s[3] / 1e6 / s[0], s[2], damagedReadAsData.containsKey(shape) ?
            damagedReadAsData.get(shape).toString() : "not counted")));
        System.out.println(summary);
        Files.writeString(Path.of("target", "journal-damage-fuzz.txt"), summary + System.lineSeparator());
    }

    /** Random bytes, 4 KiB to 4 MiB and any count (not only multiples of 4), inserted at a random offset. */
    private static int insertedGarbage(final Path dir, final Random random, final String what, final long[] stats)
        throws IOException
    {
        final int size = (int)Math.round(Math.pow(2, 12 + random.nextDouble() * 10)) + random.nextInt(4);
        final int at = firstData + random.nextInt(writtenEnd - firstData);
        final byte[] garbage = new byte[size];
        random.nextBytes(garbage);
        final byte[] damaged = new byte[writtenEnd + size + TAIL];
        System.arraycopy(original, 0, damaged, 0, at);
        System.arraycopy(garbage, 0, damaged, at, size);
        System.arraycopy(original, at, damaged, at + size, writtenEnd - at);
        Files.write(dir.resolve(fileName), damaged);
        stats[2] += size;

        final Outcome outcome = readTimed(dir, false, stats);
        final Map<Integer, byte[]> read = byPosition(outcome, what);
        int misread = 0;
        int straddler = -1;
        int firstAfter = -1;
        for (final Original r : RECORDS)
        {
            if (r.end() <= at)
            {
                assertThat(read.get(r.position())).as(() -> what + ": record at " + r.position() + " before the damage, " + outcome.notes())
                    .isEqualTo(r.bytes());
            }
            else if (r.position() >= at)
            {
                firstAfter = firstAfter < 0 ? r.position() + size : firstAfter;
                assertThat(read.get(r.position() + size))
                    .as(() -> what + ": record at " + r.position() + " after the damage, now at " + (r.position() + size) +
                    ", " + outcome.notes())
                    .isEqualTo(r.bytes());
            }
            else
            {
                straddler = r.position();
                misread += read.containsKey(straddler) ? 1 : 0;
            }
        }
        assertThat(read).as(what + ": nothing read but the records").hasSize(RECORDS.size() - (straddler >= 0 ? 1 : 0) +
            misread);
        assertThat(outcome.damageCount()).as(what + ": one damaged region, " + outcome.notes()).isEqualTo(1);
        final Note note = outcome.notes().get(0);
        final int lowest = straddler >= 0 ? straddler : at;
        assertThat(note.from()).as(what + ": " + note.line()).isBetween((long)lowest, (long)at + size - 1);
        assertThat(note.to()).as(what + ": " + note.line()).isEqualTo(firstAfter < 0 ? -1 : firstAfter);
        assertSameAlive(dir, outcome, what, stats);
        return misread;
    }

    /** A 4 KiB page of the written data copied over another. */
    private static int copiedPage(final Path dir, final Random random, final String what, final long[] stats)
        throws IOException
    {
        // pages of records (Chronicle's index documents before them are skipped unread)
        final int first = (firstData + PAGE - 1) / PAGE;
        final int pages = writtenEnd / PAGE - first;
        final int from = (first + random.nextInt(pages)) * PAGE;
        int to = from;
        while (to == from)
        {
            to = (first + random.nextInt(pages)) * PAGE;
        }
        final byte[] damaged = Arrays.copyOf(original, writtenEnd + TAIL);
        System.arraycopy(original, from, damaged, to, PAGE);
        Files.write(dir.resolve(fileName), damaged);
        stats[2] += PAGE;

        final int page = to;
        final Outcome outcome = readTimed(dir, false, stats);
        final Map<Integer, byte[]> read = byPosition(outcome, what);
        final Map<Integer, Original> copies = new HashMap<>();
        for (final Original r : RECORDS)
        {
            if (r.position() >= from && r.end() <= from + PAGE)
            {
                copies.put(r.position() - from + to, r);
            }
        }
        // the copied page's last record may run past the page's end: in its new place its length then covers the
        // records that follow the page up to where it ends. With no checksum in a record, nothing tells it from a
        // record of that place when it ends on a record boundary there; those records are then not seen
        int hiddenUntil = -1;
        for (final Original r : RECORDS)
        {
            if (r.position() >= from && r.position() < from + PAGE && r.end() > from + PAGE)
            {
                hiddenUntil = r.end() - from + to;
            }
        }
        int misread = 0;
        int firstAffected = -1;
        int firstAfter = -1;
        for (final Original r : RECORDS)
        {
            final boolean outside = r.end() <= to || r.position() >= to + PAGE;
            final boolean hidden = r.position() >= to + PAGE && r.position() < hiddenUntil &&
                !read.containsKey(r.position());
            if (outside && !hidden)
            {
                assertThat(read.get(r.position())).as(() -> what + ": record at " + r.position() + " outside the page " +
                    page + ", " + outcome.notes()).isEqualTo(r.bytes());
                if (r.position() >= to + PAGE && firstAfter < 0)
                {
                    firstAfter = r.position();
                }
            }
            else
            {
                firstAffected = firstAffected < 0 ? r.position() : firstAffected;
            }
        }
        for (final Map.Entry<Integer, byte[]> e : read.entrySet())
        {
            final int p = e.getKey();
            final Original copy = copies.get(p);
            if (p >= to && p < to + PAGE && copy != null)
            {
                // a whole record of the copied page: a record of this journal, which has no checksum to tell it
                assertThat(e.getValue()).as(what + ": copied record at " + p).isEqualTo(copy.bytes());
            }
            else if (p >= firstAffected && p < to + PAGE)
            {
                misread++;
            }
        }
        // with no checksum in a record, damage shows only where the chain of record lengths breaks: a page whose
        // landing keeps the chain whole (the record cut at its start and the one cut at its end both end on a record
        // boundary of what follows) reads as records from end to end, and nothing can be reported. Where the chain
        // breaks, the reader must say so
        final Original sample = RECORDS.get(0);
        final int header = sample.end() - sample.position() - sample.bytes().length;
        final int affectedEnd = Math.max(to + PAGE, hiddenUntil);
        boolean chained = true;
        int previous = -1;
        for (final Map.Entry<Integer, byte[]> e : new java.util.TreeMap<>(read).entrySet())
        {
            if (e.getKey() < firstAffected)
            {
                continue;
            }
            // Chronicle starts every document on a 4-byte boundary: a record's successor starts where it ends,
            // rounded up to the next multiple of 4
            if (previous >= 0 && e.getKey() != ((previous + header + read.get(previous).length + 3) & ~3))
            {
                chained = false;
                break;
            }
            if (e.getKey() >= affectedEnd)
            {
                break;
            }
            previous = e.getKey();
        }
        if (!chained)
        {
            assertThat(outcome.damageCount()).as(what + ": damage reported where the chain of lengths breaks")
                .isPositive();
        }
        for (final Note note : outcome.notes())
        {
            // the page and the records it cuts at both ends, up to the first record after it
            // (found where a cut record's length led, it may lie past the first record after the page: the note
            // then says reading resumed before it, inside that cut record)
            assertThat(note.from()).as(what + ": " + note.line()).isGreaterThanOrEqualTo(firstAffected);
            assertThat(note.to()).as(what + ": " + note.line()).isBetween(firstAffected + 1L, (long)firstAfter);
        }
        assertSameAlive(dir, outcome, what, stats);
        return misread;
    }

    /** One to eight bits flipped in the framing or record header of one to eight records. */
    private static int headerFlips(final Path dir, final Random random, final String what, final long[] stats)
        throws IOException
    {
        final byte[] damaged = Arrays.copyOf(original, writtenEnd + TAIL);
        final TreeMap<Integer, Integer> hit = new TreeMap<>();
        final int records = 1 + random.nextInt(8);
        for (int k = 0; k < records; k++)
        {
            final int index = 1 + random.nextInt(RECORDS.size() - 2);
            final Original r = RECORDS.get(index);
            final int flips = 1 + random.nextInt(3);
            for (int f = 0; f < flips; f++)
            {
                final int bit = random.nextInt((Integer.BYTES + JournalRecordDescriptor.RECORD_HEADER_LENGTH) * 8);
                damaged[r.position() + bit / 8] ^= (byte)(1 << (bit % 8));
            }
            hit.put(r.position(), index);
        }
        Files.write(dir.resolve(fileName), damaged);
        stats[2] += hit.size() * 20L;

        final Outcome outcome = readTimed(dir, false, stats);
        final Map<Integer, byte[]> read = byPosition(outcome, what);
        int misread = 0;
        for (final Original r : RECORDS)
        {
            if (!hit.containsKey(r.position()))
            {
                assertThat(read.get(r.position())).as(() -> what + ": record at " + r.position() + " not flipped, " + outcome.notes())
                    .isEqualTo(r.bytes());
            }
            else if (read.containsKey(r.position()) && !Arrays.equals(read.get(r.position()), r.bytes()))
            {
                misread++;
            }
        }
        for (final Note note : outcome.notes())
        {
            // the damage starts at a flipped record and reading resumes at the first record after it not flipped
            final Integer start = hit.floorKey((int)note.from());
            assertThat(start).as(what + ": " + note.line() + " flipped " + hit.keySet()).isNotNull();
            int next = hit.get(start) + 1;
            while (next < RECORDS.size() && hit.containsKey(RECORDS.get(next).position()))
            {
                next++;
            }
            assertThat(note.from()).as(what + ": " + note.line()).isLessThan(RECORDS.get(hit.get(start)).end());
            assertThat(note.to()).as(what + ": " + note.line() + " flipped " + hit.keySet())
                .isBetween(note.from() + 1, (long)RECORDS.get(next).position());
        }
        assertSameAlive(dir, outcome, what, stats);
        return misread;
    }

    /**
     * 10,000 bits flipped anywhere in the written data: no value out of range; every record no flip touched is read at
     * its place, or lies under a record read across it (flips in a header's length and in the body's own length that
     * agree make a longer record no check can tell); live reading as far as offline.
     */
    private static int manyFlips(final Path dir, final Random random, final String what, final long[] stats)
        throws IOException
    {
        final byte[] damaged = Arrays.copyOf(original, writtenEnd + TAIL);
        final java.util.BitSet flipped = new java.util.BitSet();
        for (int k = 0; k < 10_000; k++)
        {
            final int bit = firstData * 8 + random.nextInt((writtenEnd - firstData) * 8);
            damaged[bit / 8] ^= (byte)(1 << (bit % 8));
            flipped.set(bit / 8);
        }
        Files.write(dir.resolve(fileName), damaged);
        stats[2] += 10_000;
        final Outcome outcome = readTimed(dir, false, stats);
        assertThat(outcome.damageCount()).as(what).isPositive();
        final TreeMap<Integer, byte[]> read = new TreeMap<>(byPosition(outcome, what));
        int untouched = 0;
        for (final Original r : RECORDS)
        {
            final int next = flipped.nextSetBit(r.position());
            if (next >= 0 && next < r.end())
            {
                continue;
            }
            untouched++;
            final Map.Entry<Integer, byte[]> over = read.floorEntry(r.end() - 1);
            // a record read from before it whose length runs into it (one read from inside it would be a miss)
            final boolean underAnother = over != null && over.getKey() < r.position() &&
                over.getKey() + Integer.BYTES + over.getValue().length > r.position();
            if (!underAnother)
            {
                assertThat(read.get(r.position())).as(() -> what + ": untouched record at " + r.position() + ", " +
                    outcome.notes()).isEqualTo(r.bytes());
            }
        }
        assertThat(untouched).as(what + ": records no flip touched").isPositive();
        assertSameAlive(dir, outcome, what, stats);
        return -1;
    }

    /** Reading the same file live (as {@code replay --follow} does) gives the same records and damage. */
    private static void assertSameAlive(final Path dir, final Outcome offline, final String what, final long[] stats)
    {
        final Outcome live = readTimed(dir, true, stats);
        assertThat(live.records().size()).as(what + ": records read live, " + live.notes() + ", offline " +
            offline.notes()).isEqualTo(offline.records().size());
        assertThat(live.damageCount()).as(what + ": damage read live").isEqualTo(offline.damageCount());
    }

    private static Outcome readTimed(final Path dir, final boolean live, final long[] stats)
    {
        final long start = System.nanoTime();
        final List<Read> records = new ArrayList<>();
        final List<Note> notes = new ArrayList<>();
        final long damageCount;
        // live, an unfinished header (a flipped bit can make one) is the end until it has stood a second: the clock
        // steps that far on every look, and reading goes on until a second call finds nothing either
        final long[] now = {0};
        try (JournalReader reader = JournalReader.open(dir, live,
            () -> now[0] += FramingWalk.UNFINISHED_STALL_NANOS))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record) || live && reader.next(record))
            {
                final String line = record.toString();
                records.add(new Read((int)reader.position(), Arrays.copyOf(record.buffer().byteArray(),
                    record.length()), line));
                assertInRange(record, line);
            }
            damageCount = reader.damageCount();
            for (final String line : reader.damage())
            {
                final Matcher m = NOTE.matcher(line);
                assertThat(m.find()).as(line).isTrue();
                notes.add(new Note(Long.parseLong(m.group(1)), m.group(2) == null ? -1 : Long.parseLong(m.group(2)),
                    line));
            }
        }
        stats[live ? 3 : 1] += System.nanoTime() - start;
        return new Outcome(records, notes, damageCount);
    }

    private static void assertInRange(final JournalRecord record, final String line)
    {
        assertThat(record.nodeId()).as(line).isEqualTo(NODE_ID);
        assertThat(record.writer()).as(line).isNotNull();
        assertThat(record.journalNanos()).as(line).isBetween(0L, JournalReader.MAX_NANOS - 1);
        switch (record.kind())
        {
            case FRAME ->
            {
                assertThat(record.source()).as(line).isBetween(0, 255);
                assertThat(record.seq()).as(line).isBetween(0L, JournalReader.MAX_SEQ - 1);
                assertThat(record.handlerEndNanos()).as(line).isBetween(0L, JournalReader.MAX_NANOS - 1);
            }
            case COUNTERS -> assertThat(record.counterCount()).as(line).isNotNegative();
            default -> assertThat(record.nanos()).as(line).isBetween(0L, JournalReader.MAX_NANOS - 1);
        }
    }

    private static Map<Integer, byte[]> byPosition(final Outcome outcome, final String what)
    {
        final Map<Integer, byte[]> read = new HashMap<>();
        for (final Read r : outcome.records())
        {
            assertThat(read.put(r.position(), r.bytes())).as(() -> what + ": read twice at " + r.position()).isNull();
        }
        return read;
    }

    private static void removeTree(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.walk(dir))
        {
            for (final Path f : files.sorted((a, b) -> b.compareTo(a)).toList())
            {
                Files.delete(f);
            }
        }
    }
}
