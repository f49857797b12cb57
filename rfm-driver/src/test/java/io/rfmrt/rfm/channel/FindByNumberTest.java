package io.rfmrt.rfm.channel;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.RfmWindow;
import io.rfmrt.rfm.SimTestSupport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static io.rfmrt.rfm.channel.FrameReceiver.NOTHING_NEW;
import static io.rfmrt.rfm.channel.FrameReceiver.TORN_SKIPPED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The find-by-number reader's rules (docs/protocol.md, "Finding frames by number") one by one, on a channel of 8
 * slots, driven without threads: which frame {@link FrameReceiver#nextToRead()} names, and what it counts.
 */
class FindByNumberTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x1000, 8, 128, EventType.INTR1, 2);

    private Path root;
    private RfmDevice sender;
    private RfmDevice receiver;
    private FrameReceiver frames;
    private final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
    private final FrameView view = new FrameView();

    @BeforeEach
    void setUp()
    {
        root = SimTestSupport.freshRoot();
        sender = RfmDevices.open("sim:bynumber?node=1&size=1M");
        receiver = RfmDevices.open("sim:bynumber?node=2&size=1M&dmaSlots=8&dmaSlotSize=128&dma=on-demand");
        frames = new FrameReceiver(receiver, SENSOR);
    }

    @AfterEach
    void tearDown()
    {
        sender.close();
        receiver.close();
        SimTestSupport.removeRoot(root);
    }

    private FramePublisher publish(final FramePublisher publisher, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            payload.putLong(0, publisher.lastSeq() + 1);
            assertThat(publisher.publish(payload, 0, payload.capacity(), 0)).isEqualTo(RfmStatus.SUCCESS);
        }
        return publisher;
    }

    private FramePublisher start(final int count)
    {
        return publish(new FramePublisher(sender, SENSOR), count);
    }

    /** Leave the next frame's slot at -seq, as a publisher that died in the middle of the write. */
    private void tear(final FramePublisher publisher)
    {
        final long seq = publisher.lastSeq() + 1;
        sender.window().putLongRelease(SENSOR.slotOffset(seq) + FrameHeaderDescriptor.SEQ_OFFSET, -seq);
        publisher.resumeAfter(seq);
    }

    /** Read every frame there is; returns the numbers read, a torn frame given up as its negative. */
    private String readAll()
    {
        final StringBuilder read = new StringBuilder();
        for (int i = 0; i < 100; i++)
        {
            final long seq = frames.nextToRead();
            if (seq == NOTHING_NEW)
            {
                return read.toString().trim();
            }
            if (seq == TORN_SKIPPED)
            {
                read.append(" torn").append(frames.tornSkipped());
                continue;
            }
            final FrameStatus status = frames.readFromMemory(seq, view);
            if (status == FrameStatus.OVERWRITTEN)
            {
                read.append(" overwritten").append(seq);
                continue;
            }
            assertThat(status).isEqualTo(FrameStatus.OK);
            assertThat(view.buffer().getLong(view.payloadOffset())).isEqualTo(seq);
            read.append(' ').append(seq);
        }
        throw new AssertionError("the reader never ran out of frames: " + read);
    }

    /** Run the action once, in the middle of the next read (after the copy, before the slot is checked again). */
    private void duringTheNextRead(final Runnable action)
    {
        frames.readFault(() ->
        {
            frames.readFault(null);
            action.run();
        });
    }

    @Test
    void shouldLookAgainWithoutCountingWhenANewIncarnationWritesOverTheFrameBeingRead()
    {
        start(6);
        assertThat(frames.nextToRead()).isEqualTo(1);
        assertThat(frames.readFromMemory(1, view)).isEqualTo(FrameStatus.OK);
        assertThat(frames.nextToRead()).isEqualTo(2);
        assertThat(frames.readFromMemory(2, view)).isEqualTo(FrameStatus.OK);
        // a new process publishes 1..3 while the reader copies the old incarnation's 3: the same number, written in
        // full, so only the incarnation shows the change
        duringTheNextRead(() -> start(3));
        assertThat(readAll()).isEqualTo("overwritten3 1 2 3");
        assertThat(counts()).isEqualTo("frames=5 torn=0 gaps=0 restarts=1");
    }

    @Test
    void shouldLookAgainWhenANewIncarnationWritesOverTheFrameAnOnDemandTransferMoves()
    {
        start(6);
        final DmaCompletion done = new DmaCompletion();
        for (long seq = 1; seq <= 2; seq++)
        {
            assertThat(frames.nextToRead()).isEqualTo(seq);
            assertThat(frames.readOnDemand(seq, done, view)).isEqualTo(FrameStatus.OK);
            receiver.dma().release(done);
        }
        // the new process writes 1..3 while the card moves the old incarnation's 3
        duringTheNextRead(() -> start(3));
        assertThat(frames.nextToRead()).isEqualTo(3);
        assertThat(frames.readOnDemand(3, done, view)).isEqualTo(FrameStatus.OVERWRITTEN);
        receiver.dma().release(done);
        assertThat(frames.expected()).as("the slot is looked at again").isEqualTo(3);
        final StringBuilder read = new StringBuilder();
        long seq;
        while ((seq = frames.nextToRead()) != NOTHING_NEW)
        {
            assertThat(frames.readOnDemand(seq, done, view)).isEqualTo(FrameStatus.OK);
            receiver.dma().release(done);
            read.append(' ').append(seq);
        }
        assertThat(read.toString().trim()).as("the new incarnation, from its first frame").isEqualTo("1 2 3");
        assertThat(counts()).isEqualTo("frames=5 torn=0 gaps=0 restarts=1");
    }

    @Test
    void shouldCountALapUnderTheReadAsGapsNotTorn()
    {
        final FramePublisher publisher = start(3);
        assertThat(frames.nextToRead()).isEqualTo(1);
        assertThat(frames.readFromMemory(1, view)).isEqualTo(FrameStatus.OK);
        assertThat(frames.nextToRead()).isEqualTo(2);
        assertThat(frames.readFromMemory(2, view)).isEqualTo(FrameStatus.OK);
        duringTheNextRead(() -> publish(publisher, 8));
        assertThat(readAll()).as("slot 3 now holds 11: 3..10 lost to the lap").isEqualTo("overwritten3 11");
        assertThat(counts()).isEqualTo("frames=3 torn=0 gaps=8 restarts=0");
    }

    @Test
    void shouldNotGiveUpAFrameCompletedWhileTheFollowingSlotsWereLookedAt()
    {
        final FramePublisher publisher = start(2);
        assertThat(readAll()).isEqualTo("1 2");
        // the reader sees 3 being written; before it looks at the slots after it, 3 and 4 are completed
        sender.window().putLongRelease(SENSOR.slotOffset(3) + FrameHeaderDescriptor.SEQ_OFFSET, -3);
        frames.findFault(() ->
        {
            frames.findFault(null);
            publish(publisher, 2);
        });
        assertThat(readAll()).isEqualTo("3 4");
        assertThat(counts()).isEqualTo("frames=4 torn=0 gaps=0 restarts=0");
    }

    @Test
    void shouldTakeANewIncarnationWritingTheAwaitedSlotAsARestartNotATornFrame()
    {
        start(5);
        assertThat(frames.nextToRead()).isEqualTo(1);
        assertThat(frames.readFromMemory(1, view)).isEqualTo(FrameStatus.OK);
        assertThat(frames.nextToRead()).isEqualTo(2);
        assertThat(frames.readFromMemory(2, view)).isEqualTo(FrameStatus.OK);
        // a new process has written 1 and 2 and is writing 3 (its busy mark) while the old 4 and 5 are still there
        final FramePublisher second = start(2);
        sender.window().putLongRelease(SENSOR.slotOffset(3) + FrameHeaderDescriptor.SEQ_OFFSET, -3);
        assertThat(readAll()).as("the old 4 and 5 are not taken past a slot the new incarnation is writing")
            .isEqualTo("1 2");
        publish(second, 1);
        assertThat(readAll()).isEqualTo("3");
        assertThat(counts()).isEqualTo("frames=5 torn=0 gaps=0 restarts=1");
    }

    private String counts()
    {
        return "frames=" + frames.counter(FrameCounter.FRAMES) + " torn=" + frames.counter(FrameCounter.TORN) +
            " gaps=" + frames.counter(FrameCounter.GAPS) + " restarts=" +
            frames.counter(FrameCounter.PUBLISHER_RESTARTS);
    }

    @Test
    void shouldStartWithTheFrameInTheSlotOfSeqOneWhateverItsNumber()
    {
        assertThat(frames.nextToRead()).as("empty").isEqualTo(NOTHING_NEW);
        assertThat(frames.expected()).isEqualTo(1);
        start(10);
        assertThat(readAll()).as("the slot of seq 1 holds 9").isEqualTo("9 10");
        assertThat(counts()).isEqualTo("frames=2 torn=0 gaps=0 restarts=0");
        assertThat(frames.expected()).isEqualTo(11);
    }

    @Test
    void shouldWaitForACompleteFrameInTheSlotOfSeqOneAtAFreshStart()
    {
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        tear(publisher);
        publish(publisher, 2);
        assertThat(readAll()).as("a fresh reader does not give up on the slot of seq 1").isEmpty();
        assertThat(counts()).isEqualTo("frames=0 torn=0 gaps=0 restarts=0");
    }

    @Test
    void shouldTakeARestartOnceAndNeverTheOldIncarnationsFrames()
    {
        final FramePublisher first = start(6);
        assertThat(readAll()).isEqualTo("1 2 3 4 5 6");
        final FramePublisher second = start(3);
        assertThat(readAll()).as("slots 4..6 still hold the first one's").isEqualTo("1 2 3");
        assertThat(frames.takeRestart()).isTrue();
        assertThat(frames.incarnation(1)).isEqualTo(second.incarnation()).isNotEqualTo(first.incarnation());
        assertThat(readAll()).isEmpty();
        publish(second, 4);
        assertThat(readAll()).isEqualTo("4 5 6 7");
        assertThat(counts()).isEqualTo("frames=13 torn=0 gaps=0 restarts=1");
    }

    @Test
    void shouldReadTheCurrentIncarnationsLastFramesBeforeItsRestart()
    {
        final FramePublisher first = start(2);
        assertThat(readAll()).isEqualTo("1 2");
        publish(first, 2);
        start(2);
        assertThat(readAll()).isEqualTo("3 4 1 2");
        assertThat(counts()).isEqualTo("frames=6 torn=0 gaps=0 restarts=1");
    }

    @Test
    void shouldGiveUpATornFrameOnceALaterOneIsThere()
    {
        final FramePublisher publisher = start(3);
        assertThat(readAll()).isEqualTo("1 2 3");
        tear(publisher);
        assertThat(readAll()).isEmpty();
        assertThat(frames.tornWait()).isEqualTo(4);
        assertThat(counts()).as("it may still be completed").isEqualTo("frames=3 torn=0 gaps=0 restarts=0");
        publish(publisher, 2);
        assertThat(readAll()).isEqualTo("torn4 5 6");
        assertThat(frames.tornWait()).isZero();
        assertThat(counts()).isEqualTo("frames=5 torn=1 gaps=1 restarts=0");
    }

    @Test
    void shouldGiveUpEachFrameOfARunOfTornOnes()
    {
        final FramePublisher publisher = start(3);
        tear(publisher);
        tear(publisher);
        publish(publisher, 1);
        assertThat(readAll()).isEqualTo("1 2 3 torn4 torn5 6");
        assertThat(counts()).isEqualTo("frames=4 torn=2 gaps=2 restarts=0");
    }

    @Test
    void shouldNotGiveUpATornFrameForAnotherIncarnationsLaterFrame()
    {
        start(6);
        assertThat(readAll()).isEqualTo("1 2 3 4 5 6");
        final FramePublisher second = start(3);
        assertThat(readAll()).isEqualTo("1 2 3");
        tear(second);
        assertThat(readAll()).as("the slot of 5 holds the first incarnation's 5").isEmpty();
        assertThat(counts()).isEqualTo("frames=9 torn=0 gaps=0 restarts=1");
    }

    @Test
    void shouldCountATornFrameTornWhenANewIncarnationStarts()
    {
        final FramePublisher first = start(3);
        assertThat(readAll()).isEqualTo("1 2 3");
        tear(first);
        start(2);
        assertThat(readAll()).isEqualTo("torn4 1 2");
        assertThat(counts()).isEqualTo("frames=5 torn=1 gaps=0 restarts=1");
    }

    @Test
    void shouldNotCountTheNewIncarnationsFrameBeingWrittenAsTheOldOnesTornFrame()
    {
        final FramePublisher first = start(3);
        assertThat(readAll()).isEqualTo("1 2 3");
        tear(first);
        // the new one got to 3 and is writing 4 (-4 in the slot, as the old one left it)
        tear(start(3));
        assertThat(readAll()).isEqualTo("1 2 3");
        assertThat(counts()).isEqualTo("frames=6 torn=0 gaps=0 restarts=1");
    }

    @Test
    void shouldWaitOnARunOfTornFramesUntilAFrameAfterTheRunIsComplete()
    {
        final FramePublisher publisher = start(3);
        assertThat(readAll()).isEqualTo("1 2 3");
        tear(publisher);
        tear(publisher);
        // 4 and 5 are both left at their busy marks and nothing newer is complete: either may still be completed,
        // and the complete frames before them (3, in the slot before 4's) say nothing about that
        assertThat(readAll()).isEmpty();
        assertThat(frames.tornWait()).isEqualTo(4);
        assertThat(counts()).isEqualTo("frames=3 torn=0 gaps=0 restarts=0");
        publish(publisher, 1);
        assertThat(readAll()).isEqualTo("torn4 torn5 6");
        assertThat(counts()).isEqualTo("frames=4 torn=2 gaps=2 restarts=0");
    }

    @Test
    void shouldKeepWaitingWhileEverySlotIsTornAndCountThemAsGapsOnceLapped()
    {
        final FramePublisher publisher = start(3);
        assertThat(readAll()).isEqualTo("1 2 3");
        // 4..11: every one of the 8 slots left at its busy mark, none complete
        for (int i = 0; i < SENSOR.slots(); i++)
        {
            tear(publisher);
        }
        assertThat(readAll()).isEmpty();
        assertThat(frames.tornWait()).isEqualTo(4);
        // 12 lands in the slot of 4: a lap, the frames 4..11 it passed over are gaps, none was given up as torn
        publish(publisher, 1);
        assertThat(readAll()).isEqualTo("12");
        assertThat(counts()).isEqualTo("frames=4 torn=0 gaps=8 restarts=0");
    }

    @Test
    void shouldReadTheOldIncarnationsFrameItCompletesWhileANewIncarnationIsSeen()
    {
        final FramePublisher first = start(3);
        assertThat(readAll()).isEqualTo("1 2 3");
        // the old publisher is writing 4 (its busy mark) when a new one has written 1 and 2; the old one was slow,
        // not dead: it completes 4 while the reader looks at the slots
        publish(first, 1);
        final long slotOfFour = SENSOR.slotOffset(4) + FrameHeaderDescriptor.SEQ_OFFSET;
        sender.window().putLongRelease(slotOfFour, -4);
        start(2);
        assertThat(frames.findFault(() ->
        {
            frames.findFault(null);
            sender.window().putLongRelease(slotOfFour, 4);
        })).isSameAs(frames);
        assertThat(readAll()).as("4 is read, not counted torn; then the restart").isEqualTo("4 1 2");
        assertThat(counts()).isEqualTo("frames=6 torn=0 gaps=0 restarts=1");
    }

    @Test
    void shouldTakeALappedFrameAndCountTheFramesItSkipped()
    {
        final FramePublisher publisher = start(2);
        assertThat(readAll()).isEqualTo("1 2");
        publish(publisher, 10);
        assertThat(readAll()).isEqualTo("11 12");
        assertThat(counts()).isEqualTo("frames=4 torn=0 gaps=8 restarts=0");
    }

    @Test
    void shouldNotReadARefusedRestartFrameAgain()
    {
        start(2);
        assertThat(readAll()).isEqualTo("1 2");
        final FramePublisher second = start(1);
        final RfmWindow window = sender.window();
        window.putLong(SENSOR.slotOffset(1) + FrameHeaderDescriptor.HEADER_SIZE, 0xBAD);
        assertThat(frames.nextToRead()).isEqualTo(1);
        assertThat(frames.receiveFromMemory(1, view)).isEqualTo(FrameStatus.CRC_ERROR);
        assertThat(frames.nextToRead()).as("not again").isEqualTo(NOTHING_NEW);
        publish(second, 8);
        assertThat(readAll()).as("found again at its next frame in the slot of seq 1").isEqualTo("9");
        assertThat(counts()).isEqualTo("frames=3 torn=0 gaps=0 restarts=1");
    }

    @Test
    void shouldNameTheSameFrameAgainAfterARefusedRead()
    {
        start(2);
        assertThat(frames.nextToRead()).isEqualTo(1);
        frames.lookAgainAt(1);
        assertThat(readAll()).isEqualTo("1 2");
        start(1);
        assertThat(frames.nextToRead()).isEqualTo(1);
        frames.lookAgainAt(1);
        assertThat(frames.nextToRead()).as("a restart frame too").isEqualTo(1);
    }

    @Test
    void shouldTakeFramesOfAWriterThatLeavesItsIncarnationZero()
    {
        final FramePublisher publisher = start(2);
        for (long seq = 1; seq <= 2; seq++)
        {
            sender.window().putInt(SENSOR.slotOffset(seq) + FrameHeaderDescriptor.INCARNATION_OFFSET, 0);
        }
        assertThat(readAll()).isEqualTo("1 2");
        publish(publisher, 1);
        sender.window().putInt(SENSOR.slotOffset(3) + FrameHeaderDescriptor.INCARNATION_OFFSET, 0);
        assertThat(readAll()).isEqualTo("3");
        assertThat(counts()).isEqualTo("frames=3 torn=0 gaps=0 restarts=0");
    }
}
