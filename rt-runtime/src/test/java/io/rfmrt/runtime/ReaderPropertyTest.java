package io.rfmrt.runtime;

import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.runtime.ReaderHarness.Mode;
import io.rfmrt.runtime.ReaderHarness.Publisher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random publish plans (restarts, torn writes with and without their event, duplicates, stale rewrites, reads in
 * between), each run through the node's receive duties in every mode and checked against a reference model of what
 * docs/protocol.md ("Finding frames by number", "Publisher restarts") says the node counts: frames, torn, gaps,
 * duplicates, stale, restarts, and the frames handled, in order.
 * <p>
 * 1,000 seeds by default ({@code -Drfmrt.reader.seeds=N} for more); a failing seed names itself and runs alone with
 * {@code -Drfmrt.reader.seed=N}.
 */
class ReaderPropertyTest
{
    private static final int SLOTS = 16;
    /** Most writes between two reads: the publisher never laps the reader. */
    private static final int WRITES_BETWEEN_READS = SLOTS - 2;

    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-reader-property-");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
    }

    @Test
    void shouldCountWhatTheRulesSayForRandomPublishPlans()
    {
        final String one = System.getProperty("rfmrt.reader.seed");
        final long first = one != null ? Long.parseLong(one) : 1;
        final long count = one != null ? 1 : Long.getLong("rfmrt.reader.seeds", 1_000);
        final Map<Mode, ReaderHarness> nodes = new EnumMap<>(Mode.class);
        try
        {
            for (final Mode mode : Mode.values())
            {
                nodes.put(mode, new ReaderHarness("property" + mode.ordinal(), mode, SLOTS, 64));
            }
            for (long seed = first; seed < first + count; seed++)
            {
                final List<Op> plan = plan(seed);
                for (final Mode mode : Mode.values())
                {
                    final ReaderHarness node = nodes.get(mode);
                    node.reset();
                    final String actual = run(node, plan);
                    final String expected = model(mode, plan);
                    if (!actual.equals(expected))
                    {
                        throw new AssertionError("seed " + seed + " (re-run alone with -Drfmrt.reader.seed=" + seed +
                            "), mode " + mode + "\nplan:     " + plan + "\nexpected: " + expected +
                            "\nactual:   " + actual);
                    }
                }
            }
        }
        finally
        {
            nodes.values().forEach(ReaderHarness::close);
        }
    }

    /** One step of a plan. */
    enum Kind
    {
        /** A new publishing process (incarnation) on the channel; its first write is a whole frame. */
        START,
        /** Publish the next frame. */
        PUBLISH,
        /** Leave the next frame's slot at -seq; announced or not. */
        TEAR,
        /** Write the last frame again, whole, and announce it. */
        DUPLICATE,
        /** Write an older frame again, whole, and announce it. */
        STALE,
        /** The node's duties run until they find nothing more. */
        READ
    }

    /**
     * @param kind     what.
     * @param seq      the frame's number (PUBLISH, TEAR, DUPLICATE, STALE).
     * @param announce TEAR: its event is sent.
     */
    record Op(Kind kind, long seq, boolean announce)
    {
        @Override
        public String toString()
        {
            return switch (kind)
            {
                case START -> "start";
                case PUBLISH -> "" + seq;
                case TEAR -> (announce ? "torn!" : "torn") + seq;
                case DUPLICATE -> "dup" + seq;
                case STALE -> "stale" + seq;
                case READ -> "|";
            };
        }
    }

    static List<Op> plan(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Op> plan = new ArrayList<>();
        final int length = 10 + random.nextInt(50);
        long last = 0;
        boolean pendingTorn = false;
        final List<Long> good = new ArrayList<>();
        int writes = 0;
        plan.add(new Op(Kind.START, 0, false));
        for (int i = 0; i < length; i++)
        {
            if (writes >= WRITES_BETWEEN_READS)
            {
                plan.add(new Op(Kind.READ, 0, false));
                writes = 0;
            }
            final int dice = random.nextInt(100);
            if (dice < 25)
            {
                plan.add(new Op(Kind.READ, 0, false));
                writes = 0;
            }
            else if (dice < 33 && last > 0)
            {
                plan.add(new Op(Kind.START, 0, false));
                last = 0;
                pendingTorn = false;
                good.clear();
                // a new incarnation's first write is a whole frame
                plan.add(new Op(Kind.PUBLISH, ++last, false));
                good.add(last);
                writes++;
            }
            else if (dice < 43 && last > 0 && !pendingTorn)
            {
                plan.add(new Op(Kind.TEAR, ++last, random.nextBoolean()));
                pendingTorn = true;
                writes++;
            }
            else if (dice < 49 && !pendingTorn && !good.isEmpty() && good.get(good.size() - 1) == last)
            {
                plan.add(new Op(Kind.DUPLICATE, last, false));
                writes++;
            }
            else if (dice < 55 && !pendingTorn && good.size() > 1)
            {
                // a frame still in its slot: less than a ring behind the last
                final List<Long> older = good.stream().filter(s -> s < good.get(good.size() - 1) &&
                    s > good.get(good.size() - 1) - (SLOTS - 2)).toList();
                if (!older.isEmpty())
                {
                    plan.add(new Op(Kind.STALE, older.get(random.nextInt(older.size())), false));
                    writes++;
                }
            }
            else
            {
                final int frames = 1 + random.nextInt(4);
                for (int f = 0; f < frames && writes < WRITES_BETWEEN_READS; f++)
                {
                    plan.add(new Op(Kind.PUBLISH, ++last, false));
                    good.add(last);
                    pendingTorn = false;
                    writes++;
                }
            }
        }
        plan.add(new Op(Kind.READ, 0, false));
        return plan;
    }

    private static String run(final ReaderHarness node, final List<Op> plan)
    {
        Publisher publisher = null;
        for (final Op op : plan)
        {
            switch (op.kind())
            {
                case START -> publisher = node.start();
                case PUBLISH -> publisher.publish(1);
                case TEAR -> publisher.tear(op.announce());
                case DUPLICATE, STALE -> publisher.rewrite(op.seq());
                case READ -> node.drain();
            }
        }
        return summary(node.handled, node.count(FrameCounter.FRAMES), node.count(FrameCounter.TORN),
            node.count(FrameCounter.GAPS), node.count(FrameCounter.DUPLICATES), node.count(FrameCounter.STALE),
            node.count(FrameCounter.PUBLISHER_RESTARTS), node.count(RuntimeCounter.FRAMES_HANDLED));
    }

    private static String summary(final List<String> handled, final long frames, final long torn, final long gaps,
        final long duplicates, final long stale, final long restarts, final long framesHandled)
    {
        return "frames=" + frames + " torn=" + torn + " gaps=" + gaps + " duplicates=" + duplicates + " stale=" +
            stale + " restarts=" + restarts + " handled=" + framesHandled + " " + handled;
    }

    /** What is in one slot of the channel, as the model sees it. */
    private record Slot(int publisher, long seq, boolean torn)
    {
        boolean complete()
        {
            return seq > 0 && !torn;
        }
    }

    /**
     * The reference model: what the docs say the node counts for a plan in a mode.
     */
    static String model(final Mode mode, final List<Op> plan)
    {
        return mode.findsByNumber() ? new ByNumber(mode).run(plan) : new ByEvent().run(plan);
    }

    /** Auto DMA: every announced write arrives, in order, and is checked against the source's last number. */
    private static final class ByEvent
    {
        String run(final List<Op> plan)
        {
            final List<String> handled = new ArrayList<>();
            long frames = 0;
            long torn = 0;
            long gaps = 0;
            long duplicates = 0;
            long stale = 0;
            long restarts = 0;
            int publisher = 0;
            int current = 0;
            long last = 0;
            for (final Op op : plan)
            {
                if (op.kind() == Kind.START)
                {
                    publisher++;
                    continue;
                }
                if (op.kind() == Kind.READ)
                {
                    continue;
                }
                if (op.kind() == Kind.TEAR)
                {
                    // the card moves the slot as it is, at -seq: torn; unannounced, the card never sees it
                    torn += op.announce() ? 1 : 0;
                    continue;
                }
                if (publisher != current)
                {
                    restarts += current != 0 ? 1 : 0;
                    current = publisher;
                    last = 0;
                }
                if (last != 0 && op.seq() == last)
                {
                    duplicates++;
                }
                else if (last != 0 && op.seq() < last)
                {
                    stale++;
                }
                else
                {
                    gaps += last != 0 ? op.seq() - last - 1 : 0;
                    last = op.seq();
                    frames++;
                    handled.add("P" + publisher + "#" + op.seq());
                }
            }
            return summary(handled, frames, torn, gaps, duplicates, stale, restarts, frames);
        }
    }

    /** On-demand DMA and polling: the reader finds frames by number in the slots. */
    private static final class ByNumber
    {
        private final Mode mode;
        private final Slot[] slots = new Slot[SLOTS];
        private final List<String> handled = new ArrayList<>();
        private long frames;
        private long torn;
        private long gaps;
        private long restarts;
        private int current;
        private long last;
        private long expected = 1;
        private boolean tornCountedAtRestart;

        ByNumber(final Mode mode)
        {
            this.mode = mode;
            java.util.Arrays.fill(slots, new Slot(0, 0, false));
        }

        private Slot slot(final long seq)
        {
            return slots[(int)(seq & (SLOTS - 1))];
        }

        String run(final List<Op> plan)
        {
            int publisher = 0;
            boolean announced = false;
            for (final Op op : plan)
            {
                switch (op.kind())
                {
                    case START -> publisher++;
                    case PUBLISH, DUPLICATE, STALE ->
                    {
                        slots[(int)(op.seq() & (SLOTS - 1))] = new Slot(publisher, op.seq(), false);
                        announced = true;
                    }
                    case TEAR ->
                    {
                        slots[(int)(op.seq() & (SLOTS - 1))] = new Slot(publisher, op.seq(), true);
                        announced |= op.announce();
                    }
                    case READ ->
                    {
                        // on-demand: the reader looks when an event woke it; polling: at every poll
                        if (announced || mode.polling)
                        {
                            read();
                        }
                        announced = false;
                    }
                }
            }
            return summary(handled, frames, torn, gaps, 0, 0, restarts, frames);
        }

        private void read()
        {
            while (true)
            {
                final Slot first = slot(1);
                if (current == 0 && expected == 1)
                {
                    if (!first.complete())
                    {
                        return;
                    }
                    take(first);
                    continue;
                }
                final Slot at = slot(expected);
                if (at.complete() && at.publisher() == current && at.seq() >= expected)
                {
                    take(at);
                    continue;
                }
                final boolean tornHere = at.torn() && at.seq() == expected;
                final Slot before = slot(expected - 1);
                final boolean newerReached = first.complete() && first.publisher() != current &&
                    before.complete() && before.publisher() == first.publisher();
                if (tornHere && laterFrameFollows() && !newerReached)
                {
                    torn++;
                    expected++;
                    continue;
                }
                if (first.complete() && first.publisher() != current)
                {
                    if (tornHere && !tornCountedAtRestart && !newerReached)
                    {
                        // the old incarnation ended without completing it
                        torn++;
                        tornCountedAtRestart = true;
                        continue;
                    }
                    take(first);
                    continue;
                }
                return;
            }
        }

        private boolean laterFrameFollows()
        {
            for (long n = expected + 1; n < expected + SLOTS; n++)
            {
                final Slot s = slot(n);
                if (s.torn() && s.seq() == n)
                {
                    continue;
                }
                return s.complete() && s.seq() >= n && s.publisher() == current;
            }
            return false;
        }

        private void take(final Slot frame)
        {
            if (frame.publisher() != current)
            {
                restarts += current != 0 ? 1 : 0;
                current = frame.publisher();
                last = 0;
            }
            gaps += last != 0 ? frame.seq() - last - 1 : 0;
            last = frame.seq();
            frames++;
            handled.add("P" + frame.publisher() + "#" + frame.seq());
            expected = frame.seq() + 1;
            tornCountedAtRestart = false;
        }
    }
}
