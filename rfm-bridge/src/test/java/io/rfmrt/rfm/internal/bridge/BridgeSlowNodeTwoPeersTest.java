package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.EventType;
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
 * A slow node that asked to be waited for, sent to by the nodes of two other hosts at once, driven without threads
 * over {@link SimLinks} (which polls as Aeron's controlled poll does: a cut message ends only its own stream's poll)
 * and a simulated clock. The receiving bridge cuts its polls short while it waits on the node's ring; what it kept of
 * one peer's message must not be lost to the next peer's message in the same poll.
 */
class BridgeSlowNodeTwoPeersTest
{
    private static final String NETWORK = "slow2";
    private static final long STEP_NS = 1_000_000L;
    private static final long PEER_TIMEOUT_NS = 200_000_000L;
    private static final int DMA_SLOTS = 4;
    private static final int EVENTS_EACH = 40;
    private static final int[] SENDERS = {1, 3};
    private static final int SLOW = 2;

    private Path root;
    private SimLinks links;
    private final BridgeAgent[] agents = new BridgeAgent[4];
    private final NetworkImage[] views = new NetworkImage[4];
    private final RfmDevice[] senders = new RfmDevice[4];
    private final List<String> records = new ArrayList<>();
    /** Simulated time the slow node spent on its frames, added to every host's clock. */
    private final AtomicLong nodeNs = new AtomicLong();
    private RfmDevice slow;
    private Thread node;
    /** Set before the devices close: the node's thread must not touch a ring that is unmapped. */
    private volatile boolean stop;

    @BeforeEach
    void setUp() throws Exception
    {
        root = SimTestSupport.freshRoot();
        final long startNs = System.nanoTime() + 3_600_000_000_000L;
        links = new SimLinks(3, PEER_TIMEOUT_NS, startNs, new SplittableRandom(31));
        for (int id = 1; id <= 3; id++)
        {
            final Path dir = Files.createDirectories(root.resolve("host" + id));
            final int host = id;
            final BridgeContext ctx = new BridgeContext()
                .network(dir, NETWORK)
                .memorySize(8192)
                .hostId(id)
                .hostName("host" + id)
                .channel("aeron:udp?endpoint=10.0.0." + id + ":40456")
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
            for (int other = 1; other <= 3; other++)
            {
                if (other != id)
                {
                    ctx.peer(new BridgeContext.Peer(other, "10.0.0." + other + ":40456"));
                }
            }
            ctx.conclude();
            agents[id] = new BridgeAgent(ctx, links.factory(id));
            views[id] = NetworkImage.attach(dir, NETWORK);
        }
        for (final int id : SENDERS)
        {
            senders[id] = SimDevice.open("sim:" + NETWORK + "?node=" + id,
                NetworkImage.attach(root.resolve("host" + id), NETWORK), id, DmaMode.AUTO,
                DmaRingFullPolicy.DROP_NEWEST, DMA_SLOTS, 256, false);
        }
        slow = SimDevice.open("sim:" + NETWORK + "?node=" + SLOW,
            NetworkImage.attach(root.resolve("host" + SLOW), NETWORK), SLOW, DmaMode.AUTO,
            DmaRingFullPolicy.BACKPRESSURE, DMA_SLOTS, 256, false, TimeUnit.SECONDS.toNanos(5));
        slow.enableEvent(EventType.INTR1);
        stepUntil(() -> agents[1].linkUp() && agents[2].linkUp() && agents[3].linkUp() &&
            views[1].isRemote(SLOW) && views[3].isRemote(SLOW), "links up, node 2 known");
    }

    @AfterEach
    void tearDown() throws InterruptedException
    {
        stop = true;
        if (node != null)
        {
            node.join(TimeUnit.SECONDS.toMillis(10));
        }
        for (final RfmDevice sender : senders)
        {
            if (sender != null)
            {
                sender.close();
            }
        }
        if (slow != null)
        {
            slow.close();
        }
        for (int id = 1; id <= 3; id++)
        {
            if (agents[id] != null)
            {
                agents[id].onClose();
                views[id].close();
            }
        }
        SimTestSupport.removeRoot(root);
    }

    @Test
    void shouldKeepWhatACutPollLeftOfOnePeersMessageWhileTheOtherPeersMessagesWait() throws Exception
    {
        for (int a = 1; a <= 3; a++)
        {
            for (int b = 1; b <= 3; b++)
            {
                // a message is there the next step: the hosts' clocks move by the node's work, not by the steps
                links.latencyNs[a][b] = 20_000L;
            }
        }
        final List<Long> frames = new ArrayList<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final int total = EVENTS_EACH * SENDERS.length;
        node = new Thread(() -> SlowNode.consume(slow, frames, failure, total, TimeUnit.MILLISECONDS.toNanos(2), nodeNs,
            () -> stop), "slow-node");
        node.start();
        // both senders' frames in flight at once: each peer's DATA messages reach host 2 in the same polls
        for (int i = 1; i <= EVENTS_EACH; i++)
        {
            for (final int id : SENDERS)
            {
                final int offset = 1024 * id;
                final long number = id * 1000L + i;
                senders[id].window().putLongRelease(offset, number);
                assertThat(senders[id].sendEvent(SLOW, EventType.INTR1, (int)number, offset, 64))
                    .isEqualTo(RfmStatus.SUCCESS);
            }
        }
        final BridgeFile file2 = BridgeFile.of(views[SLOW].bridge());
        stepUntil(() -> file2.counter(BridgeCounter.EVENTS_DELIVERED) == total, "every event handed to the card");
        node.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(node.isAlive()).as("the node took every frame").isFalse();
        assertThat(failure.get()).isNull();

        assertThat(file2.counter(BridgeCounter.INBOUND_POLLS_CUT)).as("polls cut while the node was waited for")
            .isPositive();
        assertThat(frames).hasSize(total);
        for (final int id : SENDERS)
        {
            // every frame of each sender, in its order
            final List<Long> own = frames.stream().filter(n -> n / 1000 == id).toList();
            assertThat(own).as("frames of node " + id).hasSize(EVENTS_EACH);
            for (int i = 0; i < EVENTS_EACH; i++)
            {
                assertThat(own.get(i)).isEqualTo(id * 1000L + i + 1);
            }
        }
        assertThat(file2.counter(BridgeCounter.DMA_DROPPED_NODE_BEHIND)).isZero();
        assertThat(records).noneMatch(r -> r.contains(BridgeRecordKind.PEER_LOST.toString()));
        for (int id = 1; id <= 3; id++)
        {
            assertThat(agents[id].linkUp()).as("host " + id + "'s link").isTrue();
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
            for (int id = 1; id <= 3; id++)
            {
                agents[id].doWork();
            }
            links.step();
            links.nowNs += STEP_NS;
        }
        throw new AssertionError("not reached in 20 s of simulated time: " + what + "; records " + records);
    }
}
