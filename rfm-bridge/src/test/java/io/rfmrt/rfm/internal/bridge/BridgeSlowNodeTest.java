package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
import io.rfmrt.rfm.bridge.BridgeContext;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeRecordKind;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import io.rfmrt.rfm.internal.sim.SimDevice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node that does not keep up with what another host sends it, driven without threads over {@link SimLinks} and a
 * simulated clock. With a card's ring ({@code drop-newest}) the receiving bridge never waits for it (the other nodes and
 * hosts go on), applies every write, and drops what the node's card cannot hold, counted in the bridge's own counters,
 * on the card, and said in a record. With a ring that waits ({@code backpressure}) the bridge waits for the node.
 */
class BridgeSlowNodeTest
{
    private static final String NETWORK = "slow";
    private static final long STEP_NS = 1_000_000L;
    private static final long PEER_TIMEOUT_NS = 200_000_000L;
    private static final int DMA_SLOTS = 4;
    private static final int FRAME_OFFSET = 1024;
    private static final int FRAME_LENGTH = 64;
    private static final int EVENTS = 200;
    /** The hosts' time a slow but alive node spends on each frame. */
    private static final long SLOW_WORK_NS = 1_250_000L;

    private Path root;
    private SimLinks links;
    private final BridgeAgent[] agents = new BridgeAgent[3];
    private final NetworkImage[] views = new NetworkImage[3];
    private final List<String> records = new ArrayList<>();
    /** Simulated time the slow node spent on its frames, added to both hosts' clocks. */
    private final AtomicLong nodeNs = new AtomicLong();
    /** The longest duty cycle of host 2 in the node's time. */
    private long longestCycle2Ns;
    private RfmDevice sender;
    private RfmDevice slow;
    private Thread node;
    /** Set before the devices close: the node's thread must not touch a ring that is unmapped. */
    private volatile boolean stop;

    @BeforeEach
    void setUp() throws Exception
    {
        root = SimTestSupport.freshRoot();
        final long startNs = System.nanoTime() + 3_600_000_000_000L;
        links = new SimLinks(2, PEER_TIMEOUT_NS, startNs, new SplittableRandom(27));
        for (int id = 1; id <= 2; id++)
        {
            final Path dir = Files.createDirectories(root.resolve("host" + id));
            final int host = id;
            final BridgeContext ctx = new BridgeContext()
                .network(dir, NETWORK)
                .memorySize(4096)
                .hostId(id)
                .hostName("host" + id)
                .channel("aeron:udp?endpoint=10.0.0." + id + ":40456")
                .peer(new BridgeContext.Peer(3 - id, "10.0.0." + (3 - id) + ":40456"))
                .logCapacity(64 * 1024)
                .peerTimeoutNs(PEER_TIMEOUT_NS)
                .heartbeatNs(50_000_000L)
                .nanoClock(() -> links.nowNs + nodeNs.get())
                .epochClock(() -> (links.nowNs + nodeNs.get() - startNs) / 1_000_000)
                .listener((kind, peer, name, value, value2) ->
                    records.add(host + " " + kind + " " + value + " " + value2))
                .errorHandler(ex ->
                {
                    throw new IllegalStateException(ex);
                });
            ctx.conclude();
            agents[id] = new BridgeAgent(ctx, links.factory(id));
            views[id] = NetworkImage.attach(dir, NETWORK);
        }
    }

    /** Node 1 on host 1 sends; node 2 on host 2 is the slow one, its DMA ring full by {@code policy}. */
    private void start(final DmaRingFullPolicy policy, final long dmaWaitNs)
    {
        sender = SimDevice.open("sim:" + NETWORK + "?node=1", NetworkImage.attach(root.resolve("host1"), NETWORK), 1,
            DmaMode.AUTO, DmaRingFullPolicy.DROP_NEWEST, DMA_SLOTS, 256, false);
        slow = SimDevice.open("sim:" + NETWORK + "?node=2", NetworkImage.attach(root.resolve("host2"), NETWORK), 2,
            DmaMode.AUTO, policy, DMA_SLOTS, 256, false, dmaWaitNs);
        slow.enableEvent(EventType.INTR1);
        stepUntil(() -> agents[1].linkUp() && agents[2].linkUp() && views[1].isRemote(2), "link up, node 2 known");
    }

    @AfterEach
    void tearDown() throws InterruptedException
    {
        stop = true;
        if (node != null)
        {
            node.join(TimeUnit.SECONDS.toMillis(10));
        }
        if (sender != null)
        {
            sender.close();
        }
        if (slow != null)
        {
            slow.close();
        }
        for (int id = 1; id <= 2; id++)
        {
            agents[id].onClose();
            views[id].close();
        }
        SimTestSupport.removeRoot(root);
    }

    @Test
    void shouldApplyEveryWriteAndCountWhatASlowNodesCardDropsWithoutStallingTheBridge()
    {
        start(DmaRingFullPolicy.DROP_NEWEST, 0);
        sendFrames();
        final BridgeFile file2 = BridgeFile.of(views[2].bridge());
        stepUntil(() -> file2.counter(BridgeCounter.EVENTS_DELIVERED) == EVENTS, "every event handed to the card");

        // every write landed, the last one last
        assertThat(views[2].memory().getLongVolatile(FRAME_OFFSET)).isEqualTo(EVENTS);
        // the node took nothing: its ring holds its slots, its FIFO its capacity; the rest dropped, counted both here
        // and on its card
        final long dmaDropped = EVENTS - DMA_SLOTS;
        final long fifoDropped = EVENTS - EventType.FIFO_CAPACITY;
        assertThat(file2.counter(BridgeCounter.DMA_DROPPED_NODE_BEHIND)).isEqualTo(dmaDropped);
        assertThat(slow.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(dmaDropped);
        assertThat(file2.counter(BridgeCounter.EVENTS_DROPPED_NODE_BEHIND)).isEqualTo(fifoDropped);
        assertThat(slow.counter(RfmCounter.FIFO_OVERFLOWS, EventType.INTR1)).isEqualTo(fifoDropped);
        // said once (the second drop onwards falls in the same second), naming the node
        assertThat(records).filteredOn(r -> r.startsWith("2 " + BridgeRecordKind.NODE_BEHIND))
            .containsExactly("2 " + BridgeRecordKind.NODE_BEHIND + " 2 1");
        // the link stayed up: a slow node is no reason to stop the others
        assertThat(agents[1].linkUp()).isTrue();
        assertThat(agents[2].linkUp()).isTrue();
        assertThat(file2.counter(BridgeCounter.DIVERGENCES)).isZero();

        // the node catches up: it finds exactly what its card held, the oldest first
        final EventInfo info = new EventInfo();
        int taken = 0;
        while (slow.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, info) == RfmStatus.SUCCESS)
        {
            taken++;
            assertThat(info.data()).isEqualTo(taken);
        }
        assertThat(taken).isEqualTo(EventType.FIFO_CAPACITY);
        final DmaCompletion done = new DmaCompletion();
        int frames = 0;
        while (slow.dma().takeCompleted(done))
        {
            frames++;
            slow.dma().release(done);
        }
        assertThat(frames).isEqualTo(DMA_SLOTS);

        // and from then on nothing more is dropped
        for (int i = 1; i <= DMA_SLOTS; i++)
        {
            sender.window().putLongRelease(FRAME_OFFSET, EVENTS + i);
            sender.sendEvent(2, EventType.INTR1, EVENTS + i, FRAME_OFFSET, FRAME_LENGTH);
        }
        stepUntil(() -> file2.counter(BridgeCounter.EVENTS_DELIVERED) == EVENTS + DMA_SLOTS, "the later events");
        assertThat(file2.counter(BridgeCounter.DMA_DROPPED_NODE_BEHIND)).isEqualTo(dmaDropped);
        assertThat(file2.counter(BridgeCounter.EVENTS_DROPPED_NODE_BEHIND)).isEqualTo(fifoDropped);
    }

    /**
     * A node whose ring holds the bridge back instead ({@code dmaPolicy=backpressure} with a wait longer than the
     * node's pauses): the bridge waits at each full ring for the node to free a slot, so the node gets every frame and
     * every event, in order, and nothing is dropped anywhere; the waits are counted on the card.
     */
    @Test
    void shouldHoldTheBridgeBackAndLoseNothingWhenTheSlowNodesRingWaits() throws Exception
    {
        start(DmaRingFullPolicy.BACKPRESSURE, TimeUnit.SECONDS.toNanos(5));
        final List<Long> frames = new ArrayList<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        node = new Thread(() -> consumeSlowly(frames, failure), "slow-node");
        node.start();
        sendFrames();
        final BridgeFile file2 = BridgeFile.of(views[2].bridge());
        stepUntil(() -> file2.counter(BridgeCounter.EVENTS_DELIVERED) == EVENTS, "every event handed to the card");
        node.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(node.isAlive()).as("the node took every frame").isFalse();
        assertThat(failure.get()).isNull();

        // every frame, in order: each DMA copied the frame as it was when its event was sent
        assertThat(frames).hasSize(EVENTS);
        for (int i = 0; i < EVENTS; i++)
        {
            assertThat(frames.get(i)).isEqualTo(i + 1L);
        }
        assertThat(file2.counter(BridgeCounter.DMA_DROPPED_NODE_BEHIND)).isZero();
        assertThat(file2.counter(BridgeCounter.EVENTS_DROPPED_NODE_BEHIND)).isZero();
        assertThat(slow.counter(RfmCounter.DMA_DROPPED, null)).isZero();
        assertThat(slow.counter(RfmCounter.FIFO_OVERFLOWS, EventType.INTR1)).isZero();
        assertThat(slow.counter(RfmCounter.DMA_BACKPRESSURE_STALLS, null)).isPositive();
        assertThat(records).noneMatch(r -> r.contains(BridgeRecordKind.NODE_BEHIND.toString()));
    }

    /**
     * A node that asked to be waited for and then stopped: the bridge waits for it once, {@code dmaWait}, and from
     * then on drops its frames at once (counted) until it frees a slot, so it cannot hold the others back for long.
     */
    @Test
    void shouldWaitOnceForAStoppedNodeThatAskedToBeWaitedFor()
    {
        final long dmaWaitNs = TimeUnit.MILLISECONDS.toNanos(100);
        start(DmaRingFullPolicy.BACKPRESSURE, dmaWaitNs);
        sendFrames();
        final BridgeFile file2 = BridgeFile.of(views[2].bridge());
        final long startNs = System.nanoTime();
        stepUntil(() -> file2.counter(BridgeCounter.EVENTS_DELIVERED) == EVENTS, "every event handed to the card");
        final long elapsedNs = System.nanoTime() - startNs;

        // one wait of 100 ms (one stall), not one per frame (196 of them, 19.6 s)
        assertThat(elapsedNs).isGreaterThanOrEqualTo(dmaWaitNs);
        assertThat(slow.counter(RfmCounter.DMA_BACKPRESSURE_STALLS, null)).isEqualTo(1);
        assertThat(file2.counter(BridgeCounter.DMA_DROPPED_NODE_BEHIND)).isEqualTo(EVENTS - DMA_SLOTS);
        assertThat(slow.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(EVENTS - DMA_SLOTS);
        assertThat(agents[1].linkUp()).isTrue();
        assertThat(agents[2].linkUp()).isTrue();
    }

    /**
     * A node that asked to be waited for and is slow but alive: each frame takes it 1.25 ms of the hosts' time (it
     * moves their clocks on as it takes one), so the 200 frames, all in one DATA message, take 250 ms, more than the
     * peer time-out. The receiving bridge cuts its apply short each time its deliveries have run for a quarter of the
     * time-out, runs its timers (its HELLOs go out, the wait is not counted as the peer's silence) and goes on where it
     * stopped: the link stays up, and the node gets every frame, in order.
     * <p>
     * Not 400 ms, as this test had it: the time a cut poll ran is excused up to one time-out between two messages
     * heard from the peer (docs/protocol.md), and host 1's messages wait behind the rest meanwhile. At the last cut
     * of a 400-ms apply host 2 has gone without hearing host 1 for the time since host 1's last HELLO before the
     * message (up to its 50-ms heartbeat), the waits beyond the excuse (up to 400 - 200 ms less the last, uncut
     * piece) and the frames the node took between cuts: at the time-out or past it, by the node thread's phase (host
     * 2 lost host 1 for silence, PEER_LOST reason 1, in 2 of 14 runs of this class). At 250 ms that is at most the
     * heartbeat, 50 ms of waits and the frames between cuts: about half the time-out.
     */
    @Test
    void shouldRunItsTimersBetweenWaitsForASlowButAliveNodeAndKeepTheLinkUp() throws Exception
    {
        start(DmaRingFullPolicy.BACKPRESSURE, TimeUnit.SECONDS.toNanos(5));
        for (int a = 1; a <= 2; a++)
        {
            for (int b = 1; b <= 2; b++)
            {
                // a message is there the next step: the hosts' clocks move by the node's work, not by the steps
                links.latencyNs[a][b] = 20_000L;
            }
        }
        longestCycle2Ns = 0;
        final long losses1 = BridgeFile.of(views[1].bridge()).counter(BridgeCounter.PEER_LOSSES);
        final long losses2 = BridgeFile.of(views[2].bridge()).counter(BridgeCounter.PEER_LOSSES);
        final List<Long> frames = new ArrayList<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        node = new Thread(() -> SlowNode.consume(slow, frames, failure, EVENTS, SLOW_WORK_NS, nodeNs, () -> stop),
            "slow-node");
        node.start();
        sendFrames();
        final BridgeFile file2 = BridgeFile.of(views[2].bridge());
        stepUntil(() -> file2.counter(BridgeCounter.EVENTS_DELIVERED) == EVENTS, "every event handed to the card");
        node.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(node.isAlive()).as("the node took every frame").isFalse();
        assertThat(failure.get()).isNull();

        assertThat(frames).hasSize(EVENTS);
        for (int i = 0; i < EVENTS; i++)
        {
            assertThat(frames.get(i)).isEqualTo(i + 1L);
        }
        // 250 ms of waits cut into pieces of a quarter of the time-out (50 ms) and the frames the node took while
        // the bridge read the clock (a few, the ring has 4 slots): host 2's timers ran at least every 50-60 ms
        assertThat(longestCycle2Ns).isLessThanOrEqualTo(PEER_TIMEOUT_NS / 4 + (DMA_SLOTS + 2) * SLOW_WORK_NS);
        assertThat(BridgeFile.of(views[1].bridge()).counter(BridgeCounter.PEER_LOSSES)).as("records %s", records)
            .isEqualTo(losses1);
        assertThat(file2.counter(BridgeCounter.PEER_LOSSES)).as("records %s", records).isEqualTo(losses2);
        assertThat(agents[1].linkUp()).isTrue();
        assertThat(agents[2].linkUp()).isTrue();
        assertThat(file2.counter(BridgeCounter.DMA_DROPPED_NODE_BEHIND)).isZero();
        assertThat(records).noneMatch(r -> r.contains(BridgeRecordKind.PEER_LOST.toString()));
        assertThat(file2.counter(BridgeCounter.INBOUND_POLLS_CUT)).isBetween(3L, 8L);
    }

    /** Node 1 writes frame i (its number) and sends node 2 an event with it, for i = 1..EVENTS. */
    private void sendFrames()
    {
        for (int i = 1; i <= EVENTS; i++)
        {
            sender.window().putLongRelease(FRAME_OFFSET, i);
            assertThat(sender.sendEvent(2, EventType.INTR1, i, FRAME_OFFSET, FRAME_LENGTH))
                .isEqualTo(RfmStatus.SUCCESS);
        }
    }

    /** Node 2's receiving thread: a frame at a time, a pause of 1 ms after each, its events taken as they come. */
    private void consumeSlowly(final List<Long> frames, final AtomicReference<Throwable> failure)
    {
        try
        {
            final EventInfo info = new EventInfo();
            final DmaCompletion done = new DmaCompletion();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (frames.size() < EVENTS && System.nanoTime() < deadline && !stop)
            {
                if (slow.awaitEvent(EventType.INTR1, TimeUnit.MILLISECONDS.toNanos(10), info) != RfmStatus.SUCCESS)
                {
                    continue;
                }
                // each frame with its event: the node keeps its FIFO empty, only its ring is slow to free
                while (slow.dma().takeCompleted(done))
                {
                    frames.add(done.buffer().getLong(done.destOffset()));
                    slow.dma().release(done);
                    Thread.sleep(1);
                    while (slow.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, info) == RfmStatus.SUCCESS)
                    {
                        Thread.onSpinWait();
                    }
                }
            }
        }
        catch (final Throwable t)
        {
            failure.set(t);
        }
    }

    private void stepUntil(final java.util.function.BooleanSupplier condition, final String what)
    {
        for (int step = 0; step < 20_000; step++)
        {
            if (condition.getAsBoolean())
            {
                return;
            }
            agents[1].doWork();
            final long beforeNs = nodeNs.get();
            agents[2].doWork();
            // how long host 2 went without its timers, had host 1 been running meanwhile (it is, across real hosts)
            longestCycle2Ns = Math.max(longestCycle2Ns, nodeNs.get() - beforeNs);
            links.step();
            links.nowNs += STEP_NS;
        }
        throw new AssertionError("not reached in 20 s of simulated time: " + what + "; records " + records);
    }
}
