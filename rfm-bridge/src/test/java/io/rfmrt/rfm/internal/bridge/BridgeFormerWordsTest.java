package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.SimTestSupport;
import io.rfmrt.rfm.bridge.BridgeContext;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import io.rfmrt.rfm.internal.sim.SimDevice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A host whose image starts empty again (bridge and node killed, the network zeroed, its bridge file removed, both
 * started again) takes its former words back from its peers, keeps what its node wrote since, and leaves every host
 * with the same value. Three hosts over {@link SimLinks} and a simulated clock, driven step by step without threads.
 */
class BridgeFormerWordsTest
{
    private static final String NETWORK = "former";
    private static final long STEP_NS = 1_000_000L;
    private static final long PEER_TIMEOUT_NS = 200_000_000L;
    private static final int HOSTS = 3;

    private Path root;
    private long startNs;
    private SimLinks links;
    private final BridgeAgent[] agents = new BridgeAgent[HOSTS + 1];
    private final NetworkImage[] views = new NetworkImage[HOSTS + 1];
    private final RfmDevice[] nodes = new RfmDevice[HOSTS + 1];

    @BeforeEach
    void setUp()
    {
        root = SimTestSupport.freshRoot();
        startNs = System.nanoTime() + 3_600_000_000_000L;
        links = new SimLinks(HOSTS, PEER_TIMEOUT_NS, startNs, new SplittableRandom(27));
        for (int id = 1; id <= HOSTS; id++)
        {
            start(id);
        }
        stepUntil(this::allUp, "every link up");
    }

    @AfterEach
    void tearDown()
    {
        for (int id = 1; id <= HOSTS; id++)
        {
            if (nodes[id] != null)
            {
                nodes[id].close();
            }
            if (agents[id] != null)
            {
                agents[id].onClose();
            }
            if (views[id] != null)
            {
                views[id].close();
            }
        }
        SimTestSupport.removeRoot(root);
    }

    @Test
    void shouldTakeItsFormerWordsBackAndKeepAWordItsNodeWroteWhileTheOldValueWasOnItsWay()
    {
        nodes[1].window().putLongRelease(0, 11);
        nodes[1].window().putLongRelease(8, 12);
        nodes[2].window().putLongRelease(16, 21);
        stepUntil(() -> everyHostHolds(0, 11) && everyHostHolds(8, 12) && everyHostHolds(16, 21), "the writes");

        restartEmpty(1);
        assertThat(views[1].memory().getLongVolatile(0)).isZero();
        // the first answer with host 1's former words has reached host 1 and is not applied yet: host 1's node writes
        // one of those words now (in the image and the log, not yet read by its bridge)
        stepUntil(() -> resyncDataWaiting(1), "an answer on its way to host 1");
        nodes[1].window().putLongRelease(8, 13);
        stepUntil(() -> allUp() && everyHostHolds(0, 11) && everyHostHolds(8, 13) && everyHostHolds(16, 21),
            "every image as its owners wrote it");
        for (int i = 0; i < 300; i++)
        {
            step();
        }

        // word 0 came back, once (the second peer's copy was not taken again); word 1 kept the newer value everywhere
        assertThat(everyHostHolds(0, 11) && everyHostHolds(8, 13) && everyHostHolds(16, 21)).isTrue();
        final BridgeFile file = BridgeFile.of(views[1].bridge());
        assertThat(file.counter(BridgeCounter.FORMER_WORDS_TAKEN_BACK)).isEqualTo(1);
        // every peer answered: asked no more, also by a bridge of this file started again
        assertThat(file.formerWordsWanted(2)).isFalse();
        assertThat(file.formerWordsWanted(3)).isFalse();
        assertThat(BridgeFile.of(views[2].bridge()).formerWordsWanted(1)).isFalse();
    }

    @Test
    void shouldLeaveEveryHostWithOneValueWhenThePeersHeldDifferentOnes()
    {
        nodes[1].window().putLongRelease(0, 11);
        stepUntil(() -> everyHostHolds(0, 11), "the first write");
        // host 3 is cut off from host 1: the second write reaches host 2 only, then host 1 loses everything
        links.up[1][3] = false;
        links.up[3][1] = false;
        nodes[1].window().putLongRelease(0, 12);
        stepUntil(() -> views[2].memory().getLongVolatile(0) == 12, "the second write on host 2");
        assertThat(views[3].memory().getLongVolatile(0)).isEqualTo(11);
        restartEmpty(1);
        links.up[1][3] = true;
        links.up[3][1] = true;
        stepUntil(this::allUp, "every link up again");
        for (int i = 0; i < 300; i++)
        {
            step();
        }

        // nothing says which copy is newer: host 1 kept one of them and sent it to every host
        final long kept = views[1].memory().getLongVolatile(0);
        assertThat(kept).isIn(11L, 12L);
        assertThat(everyHostHolds(0, kept)).isTrue();
        assertThat(BridgeFile.of(views[1].bridge()).counter(BridgeCounter.FORMER_WORDS_TAKEN_BACK)).isEqualTo(1);
    }

    @Test
    void shouldSendAWordTakenBackToAPeerThatHadAlreadyTakenItsAnswer()
    {
        nodes[3].window().putLongRelease(16, 31);
        stepUntil(() -> everyHostHolds(16, 31), "the write");
        // host 3 loses everything, then host 1 too while host 3 is away: only host 2 still holds host 3's word
        killAndWipe(3);
        restartEmpty(1);
        stepUntil(() -> views[1].memory().getLongVolatile(16) == 0 && upWith(1, 2), "host 1 in sync with host 2");
        // host 3 comes back unable to reach host 2: host 1 takes host 3's answer, which has nothing of that word
        links.up[2][3] = false;
        links.up[3][2] = false;
        start(3);
        stepUntil(() -> upWith(1, 3), "host 1 in sync with host 3");
        assertThat(views[1].memory().getLongVolatile(16)).isZero();
        links.up[2][3] = true;
        links.up[3][2] = true;
        // host 3 takes the word back from host 2 and sends it on: host 1 does not ask host 3 again
        stepUntil(() -> allUp() && everyHostHolds(16, 31), "host 3's word on every host");
        assertThat(BridgeFile.of(views[3].bridge()).counter(BridgeCounter.FORMER_WORDS_TAKEN_BACK)).isEqualTo(1);
    }

    private boolean upWith(final int id, final int peer)
    {
        final PeerTable table = BridgeFile.of(views[id].bridge()).peers();
        return table.peerInt(table.peerIndex(peer), BridgeFileDescriptor.PEER_STATE_OFFSET) ==
            io.rfmrt.rfm.bridge.BridgeState.UP.id();
    }

    private void start(final int id)
    {
        final Path dir = root.resolve("host" + id);
        final BridgeContext ctx = new BridgeContext()
            .network(dir, NETWORK)
            .memorySize(4096)
            .hostId(id)
            .hostName("host" + id)
            .channel("aeron:udp?endpoint=10.0.0." + id + ":40456")
            .logCapacity(64 * 1024)
            .peerTimeoutNs(PEER_TIMEOUT_NS)
            .heartbeatNs(50_000_000L)
            .nanoClock(() -> links.nowNs)
            .epochClock(() -> (links.nowNs - startNs) / 1_000_000)
            .errorHandler(ex ->
            {
                throw new IllegalStateException(ex);
            });
        for (int other = 1; other <= HOSTS; other++)
        {
            if (other != id)
            {
                ctx.peer(new BridgeContext.Peer(other, "10.0.0." + other + ":40456"));
            }
        }
        try
        {
            Files.createDirectories(dir);
        }
        catch (final java.io.IOException ex)
        {
            throw new IllegalStateException(ex);
        }
        ctx.conclude();
        agents[id] = new BridgeAgent(ctx, links.factory(id));
        views[id] = NetworkImage.attach(dir, NETWORK);
        nodes[id] = SimDevice.open("sim:" + NETWORK + "?node=" + id, NetworkImage.attach(dir, NETWORK), id,
            DmaMode.AUTO, DmaRingFullPolicy.DROP_NEWEST, 4, 256, false);
    }

    /**
     * Bridge and node killed (no goodbye), the image zeroed and the bridge file removed, both started again.
     */
    private void restartEmpty(final int id)
    {
        killAndWipe(id);
        start(id);
    }

    private void killAndWipe(final int id)
    {
        links.kill(id);
        BridgeFile.of(views[id].bridge()).releaseBridge();
        agents[id] = null;
        nodes[id].close();
        nodes[id] = null;
        views[id].close();
        views[id] = null;
        BridgeSimulation.resetNetwork(root.resolve("host" + id));
    }

    private boolean resyncDataWaiting(final int id)
    {
        for (final SimLinks.SimMessage m : links.current[id].inbox)
        {
            if (m.bytes != null && m.bytes[BridgeMessages.TYPE_OFFSET] == BridgeMessages.RESYNC_DATA)
            {
                return true;
            }
        }
        return false;
    }

    private boolean everyHostHolds(final int offset, final long value)
    {
        for (int id = 1; id <= HOSTS; id++)
        {
            if (views[id] == null || views[id].memory().getLongVolatile(offset) != value)
            {
                return false;
            }
        }
        return true;
    }

    private boolean allUp()
    {
        for (int id = 1; id <= HOSTS; id++)
        {
            if (agents[id] == null || !agents[id].linkUp())
            {
                return false;
            }
        }
        return true;
    }

    private void step()
    {
        for (int id = 1; id <= HOSTS; id++)
        {
            if (agents[id] != null)
            {
                agents[id].doWork();
            }
        }
        links.step();
        links.nowNs += STEP_NS;
    }

    private void stepUntil(final BooleanSupplier condition, final String what)
    {
        for (int i = 0; i < 20_000; i++)
        {
            if (condition.getAsBoolean())
            {
                return;
            }
            step();
        }
        throw new AssertionError("not reached in 20 s of simulated time: " + what);
    }
}
