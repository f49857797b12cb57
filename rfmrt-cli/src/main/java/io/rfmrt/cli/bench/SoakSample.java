package io.rfmrt.cli.bench;

import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.counters.CounterIds;
import io.rfmrt.runtime.counters.CountersFileException;
import io.rfmrt.runtime.counters.CountersSnapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One look, at one instant of a soak, at every process it watches: each one's counters file (frames and the causes
 * of lost ones) and its {@link ProcessProbe} reading, plus what the sender had sent and the journal's bytes.
 * {@code bench soak} takes one at the start and one at the end of each interval; an interval's row is the
 * difference of two.
 *
 * @param seconds        seconds since the soak began.
 * @param sent           frames the soak's sender had sent, -1 when the soak has no sender of its own (the demo).
 * @param deadlineMisses the controller's deadline misses so far, -1 when there is no controller.
 * @param journalBytes   bytes under the journal folder, 0 without a journal.
 * @param looks          one per watched process, in the order the soak names them.
 */
record SoakSample(double seconds, long sent, long deadlineMisses, long journalBytes, List<Look> looks)
{
    /** Most files counted under a journal folder. */
    static final int MAX_JOURNAL_FILES = 100_000;

    /**
     * A process the soak watches.
     *
     * @param role     what it is: receiver, sender, plant, controller.
     * @param pid      its process id.
     * @param counters its counters file, or null (a process that is no node).
     * @param node     whether the soak's targets hold for it (a node; not the soak's own sender).
     */
    record Subject(String role, long pid, Path counters, boolean node)
    {
    }

    /**
     * What a node's counters file said: frames and every cause of a lost one.
     *
     * @param received      frames handled.
     * @param gaps          frames never seen (the sequence jumped): the lost ones.
     * @param torn          frames overwritten while read.
     * @param dmaDropped    frames the card's DMA ring had no slot for.
     * @param fifoOverflows events the card's FIFO had no room for.
     * @param handoffFull   frames the hand-off ring had no room for.
     */
    record Frames(long received, long gaps, long torn, long dmaDropped, long fifoOverflows, long handoffFull)
    {
        static Frames of(final CountersSnapshot s)
        {
            long gaps = 0;
            long torn = 0;
            for (int c = 0; c < s.channels(); c++)
            {
                gaps += Math.max(0, s.value(CounterIds.frame(c, FrameCounter.GAPS)));
                torn += Math.max(0, s.value(CounterIds.frame(c, FrameCounter.TORN)));
            }
            return new Frames(s.value(CounterIds.runtime(RuntimeCounter.FRAMES_HANDLED)), gaps, torn,
                s.value(CounterIds.card(RfmCounter.DMA_DROPPED)), s.value(CounterIds.card(RfmCounter.FIFO_OVERFLOWS)),
                s.value(CounterIds.runtime(RuntimeCounter.HANDOFF_FULL)));
        }
    }

    /**
     * One process at one instant.
     *
     * @param subject the process.
     * @param frames  its counters, null when it has no counters file or it could not be read.
     * @param process its /proc and JVM figures.
     */
    record Look(Subject subject, Frames frames, ProcessProbe.Reading process)
    {
    }

    /**
     * Look at every subject now.
     *
     * @param seconds        seconds since the soak began.
     * @param sent           frames sent so far, or -1.
     * @param deadlineMisses deadline misses so far, or -1.
     * @param journal        the journal folder, or null.
     * @param subjects       the processes.
     * @param threads        the thread names to read in each.
     * @return the sample.
     */
    static SoakSample take(final double seconds, final long sent, final long deadlineMisses, final Path journal,
        final List<Subject> subjects, final Set<String> threads)
    {
        final List<Look> looks = new ArrayList<>();
        for (final Subject s : subjects)
        {
            Frames frames = null;
            if (s.counters() != null)
            {
                try
                {
                    frames = Frames.of(CountersSnapshot.read(s.counters()));
                }
                catch (final CountersFileException ex)
                {
                    // the node is starting or has just closed its file: no figures at this instant
                }
            }
            looks.add(new Look(s, frames, ProcessProbe.read(s.pid(), threads)));
        }
        return new SoakSample(seconds, sent, deadlineMisses, bytesUnder(journal), List.copyOf(looks));
    }

    /**
     * @param dir a folder, or null.
     * @return the bytes of the regular files under it (at most {@link #MAX_JOURNAL_FILES} of them), 0 when absent.
     */
    static long bytesUnder(final Path dir)
    {
        if (dir == null || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS))
        {
            return 0;
        }
        long bytes = 0;
        try (Stream<Path> files = Files.walk(dir))
        {
            final Iterator<Path> it = files.iterator();
            for (int n = 0; it.hasNext() && n < MAX_JOURNAL_FILES; n++)
            {
                final Path f = it.next();
                if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS))
                {
                    bytes += Files.size(f);
                }
            }
        }
        catch (final IOException | UncheckedIOException ex)
        {
            // a file rolled away while walked: the bytes counted so far stand
        }
        return bytes;
    }
}
