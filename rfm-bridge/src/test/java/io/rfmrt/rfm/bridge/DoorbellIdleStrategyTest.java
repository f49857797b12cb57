package io.rfmrt.rfm.bridge;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.internal.bridge.BridgeFile;
import io.rfmrt.rfm.internal.bridge.DoorbellIdleStrategy;
import io.rfmrt.rfm.internal.bridge.OutboundLog;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bridge thread that sleeps on its doorbell is woken by a node's event (as a host by a card's interrupt), and
 * sleeps on while only a claimed, uncommitted record waits. A committed record keeps it awake, unless its outbound side
 * is blocked (a message waits for a back-pressured peer): then it sleeps as when idle.
 */
class DoorbellIdleStrategyTest
{
    private static final long TEN_MINUTES_NS = TimeUnit.MINUTES.toNanos(10);

    private TwoHosts hosts;

    @BeforeEach
    void setUp() throws Exception
    {
        hosts = new TwoHosts();
    }

    @AfterEach
    void tearDown()
    {
        hosts.close();
    }

    @Test
    void shouldWakeASleepingBridgeWhenANodeAppendsAnEvent() throws Exception
    {
        try (Bridge ignored = Bridge.launch(hosts.context(true));
            NetworkImage image = NetworkImage.attach(hosts.dirA, TwoHosts.NETWORK))
        {
            final BridgeFile file = BridgeFile.of(image.bridge());
            // every sleep ten minutes long: only the doorbell ends one within the test's time
            final IdleStrategy idle = new DoorbellIdleStrategy(file, TEN_MINUTES_NS, TEN_MINUTES_NS);
            final CountDownLatch woken = idleThrice(idle, "doorbell-sleeper");
            hosts.await(() -> file.doorbellSleepers() == 1, "the bridge thread asleep on the doorbell");
            // writes alone do not ring: the bridge takes them with the next event or wake
            OutboundLog.of(image.bridge()).appendWrite(1, 0x100, 8);
            assertThat(woken.await(200, TimeUnit.MILLISECONDS)).isFalse();
            assertThat(OutboundLog.of(image.bridge()).appendEvent(1, 2, EventType.INTR1.id(), 7, -1, 0, System.nanoTime()))
                .isTrue();
            assertThat(woken.await(30, TimeUnit.SECONDS)).as("woken by the event's doorbell").isTrue();
            assertThat(file.doorbellSleepers()).isZero();
        }
    }

    @Test
    void shouldStayAwakeForACommittedRecordButSleepWhileTheOutboundSideIsBlocked() throws Exception
    {
        try (Bridge ignored = Bridge.launch(hosts.context(true));
            NetworkImage image = NetworkImage.attach(hosts.dirA, TwoHosts.NETWORK))
        {
            final BridgeFile file = BridgeFile.of(image.bridge());
            // a committed record at the log's head (nobody drains this bridge's log in the test)
            OutboundLog.of(image.bridge()).appendWrite(1, 0x100, 8);
            final java.util.concurrent.atomic.AtomicBoolean blocked = new java.util.concurrent.atomic.AtomicBoolean();
            final IdleStrategy idle = new DoorbellIdleStrategy(file, TEN_MINUTES_NS, TEN_MINUTES_NS, blocked::get);

            final CountDownLatch awake = idleThrice(idle, "doorbell-awake");
            assertThat(awake.await(30, TimeUnit.SECONDS)).as("not asleep with a record to send").isTrue();
            assertThat(file.doorbellSleepers()).isZero();

            blocked.set(true);
            idle.reset();
            final CountDownLatch woken = idleThrice(idle, "doorbell-blocked");
            hosts.await(() -> file.doorbellSleepers() == 1, "the blocked bridge thread asleep despite the record");
            assertThat(woken.getCount()).isOne();
            assertThat(OutboundLog.of(image.bridge()).appendEvent(1, 2, EventType.INTR1.id(), 7, -1, 0, System.nanoTime()))
                .isTrue();
            assertThat(woken.await(30, TimeUnit.SECONDS)).as("woken by the event's doorbell").isTrue();
        }
    }

    /**
     * Three idle calls on a daemon thread of their own (the first two yield, the third may sleep).
     *
     * @return counted down when the three returned.
     */
    private static CountDownLatch idleThrice(final IdleStrategy idle, final String name)
    {
        final CountDownLatch done = new CountDownLatch(1);
        final Thread thread = new Thread(() ->
        {
            idle.idle(0);
            idle.idle(0);
            idle.idle(0);
            done.countDown();
        }, name);
        thread.setDaemon(true);
        thread.start();
        return done;
    }
}
