package io.rfmrt.runtime;

import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.runtime.ReaderHarness.Mode;
import io.rfmrt.runtime.ReaderHarness.Publisher;
import io.rfmrt.runtime.journal.JournalCodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A restarted publisher whose old frames are still in the slots, a restart in the middle of a burst, a torn frame
 * followed by good ones, a torn frame whose publisher died: in every way a node reads a channel (auto and on-demand
 * DMA, the hand-off and the inline handler, polling), driven without threads. The counts are the ones
 * docs/protocol.md ("Finding frames by number") says an independent client can predict.
 */
class FindByNumberReaderTest
{
    private static final String RESTART = "FAULT code=" + JournalCodes.FAULT_PUBLISHER_RESTART + " seq=1 value=1";

    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-reader-test-");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
    }

    private static List<String> frames(final int publisher, final int from, final int to)
    {
        final List<String> frames = new ArrayList<>();
        for (int seq = from; seq <= to; seq++)
        {
            frames.add("P" + publisher + "#" + seq);
        }
        return frames;
    }

    private static List<String> concat(final List<String> a, final List<String> b)
    {
        final List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static String torn(final long seq)
    {
        return "FAULT code=" + FrameStatus.TORN.id() + " seq=" + seq + " value=1";
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void shouldCountOneRestartAndHandleEveryNewFrameOnceWhileTheOldFramesAreStillInTheSlots(final Mode mode)
    {
        try (ReaderHarness node = new ReaderHarness("restart", mode, 64, 64))
        {
            node.start().publish(40);
            node.drain();
            final Publisher second = node.start().publish(20);
            node.drain();
            node.drain();
            second.publish(5);
            node.drain();
            node.drain();

            assertThat(node.handled).isEqualTo(concat(frames(1, 1, 40), frames(2, 1, 25)));
            assertThat(node.count(FrameCounter.PUBLISHER_RESTARTS)).isEqualTo(1);
            assertThat(node.count(FrameCounter.FRAMES)).isEqualTo(65);
            assertThat(node.count(FrameCounter.GAPS)).isZero();
            assertThat(node.count(FrameCounter.STALE)).isZero();
            assertThat(node.count(FrameCounter.DUPLICATES)).isZero();
            assertThat(node.count(FrameCounter.TORN)).isZero();
            assertThat(node.takeTornAndRestartFaults()).containsExactly(RESTART);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void shouldTakeOnlyTheNewIncarnationWhenTheNodeStartedAfterTheOldPublisherLeft(final Mode mode)
    {
        try (ReaderHarness node = new ReaderHarness("late", mode, 64, 64))
        {
            node.start().publish(40);
            node.restartNode();
            node.start().publish(20);
            node.drain();
            node.drain();

            assertThat(node.handled).isEqualTo(frames(2, 1, 20));
            assertThat(node.count(FrameCounter.PUBLISHER_RESTARTS)).as("the node never saw the first").isZero();
            assertThat(node.count(FrameCounter.STALE) + node.count(FrameCounter.GAPS)).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void shouldTakeTheOldIncarnationsLastFramesThenTheNewOnesAfterARestartInABurst(final Mode mode)
    {
        try (ReaderHarness node = new ReaderHarness("burst", mode, 64, 64))
        {
            final Publisher first = node.start().publish(10);
            node.drain();
            first.publish(5);
            node.start().publish(5);
            node.drain();
            node.drain();

            assertThat(node.handled).isEqualTo(concat(frames(1, 1, 15), frames(2, 1, 5)));
            assertThat(node.count(FrameCounter.PUBLISHER_RESTARTS)).isEqualTo(1);
            assertThat(node.count(FrameCounter.GAPS) + node.count(FrameCounter.STALE)).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void shouldNotSeeOldFramesTheNewIncarnationOverwroteBeforeTheReaderLooked(final Mode mode)
    {
        try (ReaderHarness node = new ReaderHarness("overwrite", mode, 64, 64))
        {
            final Publisher first = node.start().publish(10);
            node.drain();
            first.publish(5);
            node.start().publish(20);
            node.drain();

            // auto mode moved frames 11..15 when they were announced; a reader by number finds the slots of 11..15
            // already holding the second incarnation's frames
            final List<String> old = mode.findsByNumber() ? frames(1, 1, 10) : frames(1, 1, 15);
            assertThat(node.handled).isEqualTo(concat(old, frames(2, 1, 20)));
            assertThat(node.count(FrameCounter.PUBLISHER_RESTARTS)).isEqualTo(1);
            assertThat(node.count(FrameCounter.GAPS) + node.count(FrameCounter.STALE)).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void shouldCountATornFrameOnceAndHandleEveryLaterFrame(final Mode mode)
    {
        try (ReaderHarness node = new ReaderHarness("torn", mode, 64, 64))
        {
            final Publisher publisher = node.start().publish(10);
            publisher.tear(true);
            node.drain();
            if (mode.findsByNumber())
            {
                assertThat(node.count(FrameCounter.TORN)).as("it may still be completed").isZero();
                assertThat(node.receiver().tornWait()).isEqualTo(11);
            }
            publisher.publish(10);
            node.drain();
            node.drain();

            assertThat(node.handled).isEqualTo(concat(frames(1, 1, 10), frames(1, 12, 21)));
            assertThat(node.count(FrameCounter.TORN)).isEqualTo(1);
            assertThat(node.count(FrameCounter.GAPS)).as("the torn frame is lost").isEqualTo(1);
            assertThat(node.count(FrameCounter.FRAMES)).isEqualTo(20);
            assertThat(node.takeTornAndRestartFaults()).containsExactly(torn(11));
            assertThat(node.receiver().tornWait()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void shouldCountATornFrameWhosePublisherDiedAndTakeTheNextIncarnation(final Mode mode)
    {
        try (ReaderHarness node = new ReaderHarness("torndies", mode, 64, 64))
        {
            node.start().publish(10).tear(true);
            node.drain();
            node.drain();
            assertThat(node.handled).isEqualTo(frames(1, 1, 10));
            // nothing says yet that frame 11 will never be completed: a reader by number waits on it, no time-out
            assertThat(node.count(FrameCounter.TORN)).isEqualTo(mode.findsByNumber() ? 0 : 1);

            node.start().publish(5);
            node.drain();

            assertThat(node.handled).isEqualTo(concat(frames(1, 1, 10), frames(2, 1, 5)));
            assertThat(node.count(FrameCounter.TORN)).isEqualTo(1);
            assertThat(node.count(FrameCounter.PUBLISHER_RESTARTS)).isEqualTo(1);
            assertThat(node.count(FrameCounter.GAPS)).as("a restart forgets the numbers").isZero();
            assertThat(node.takeTornAndRestartFaults()).containsExactly(torn(11), RESTART);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void shouldGiveUpOnEveryFrameOfARunOfTornOnes(final Mode mode)
    {
        try (ReaderHarness node = new ReaderHarness("tornrun", mode, 16, 64))
        {
            final Publisher publisher = node.start().publish(3);
            publisher.tear(true);
            publisher.tear(true);
            publisher.tear(true);
            publisher.publish(2);
            node.drain();

            assertThat(node.handled).isEqualTo(concat(frames(1, 1, 3), frames(1, 7, 8)));
            assertThat(node.count(FrameCounter.TORN)).isEqualTo(3);
            assertThat(node.count(FrameCounter.GAPS)).isEqualTo(3);
            assertThat(node.takeTornAndRestartFaults()).containsExactly(torn(4), torn(5), torn(6));
        }
    }

    @Test
    void shouldSeeATornFrameWithoutAnEventOnlyAsAGapInAutoMode()
    {
        for (final Mode mode : List.of(Mode.AUTO_BLOCKING, Mode.ON_DEMAND_BLOCKING))
        {
            try (ReaderHarness node = new ReaderHarness("silent" + mode.ordinal(), mode, 64, 64))
            {
                final Publisher publisher = node.start().publish(10);
                publisher.tear(false);
                publisher.publish(10);
                node.drain();

                assertThat(node.handled).as(mode.name()).isEqualTo(concat(frames(1, 1, 10), frames(1, 12, 21)));
                assertThat(node.count(FrameCounter.TORN)).as(mode.name()).isEqualTo(mode.findsByNumber() ? 1 : 0);
                assertThat(node.count(FrameCounter.GAPS)).as(mode.name()).isEqualTo(1);
            }
        }
    }
}
