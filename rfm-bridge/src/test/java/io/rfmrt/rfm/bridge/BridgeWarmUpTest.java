package io.rfmrt.rfm.bridge;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bridge's warm-up: two private bridges in this JVM over the loopback interface, removed afterwards.
 */
class BridgeWarmUpTest
{
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
    void shouldCarryTheFramesAskedForWholeAndLeaveNothingBehind() throws Exception
    {
        final BridgeWarmUp.Result r = BridgeWarmUp.run(hosts.context(true).conclude(), b -> backoff(), () -> true,
            3_000);

        assertThat(r.problem()).isNull();
        assertThat(r.sent()).isGreaterThanOrEqualTo(3_000);
        assertThat(r.received()).isEqualTo(r.sent());
        assertThat(r.bad()).isZero();
        assertThat(leftOver()).isEmpty();
    }

    /**
     * The paths of traffic that is not smooth run too (a JIT log of a real bridge showed them compiled late): data
     * packets lost and sent again, a receiving node that stops until the sending bridge is back-pressured and the
     * receiving bridge waits on its full ring. Every frame still arrives, whole and in order.
     */
    @Test
    void shouldRunLossRecoveryAndBackPressureAndStillCarryEveryFrameWholeInOrder() throws Exception
    {
        final BridgeWarmUp.Result r = BridgeWarmUp.run(hosts.context(true).conclude(), b -> backoff(), () -> true,
            5_000);
        System.out.println("warmed up: " + r.summary() + "; " + r.dropped() + " dropped, " + r.naks() + " NAKs, " +
            r.stalls() + " stalls back-pressured");

        assertThat(r.problem()).isNull();
        assertThat(r.sent()).isGreaterThanOrEqualTo(5_000);
        assertThat(r.received()).isEqualTo(r.sent());
        assertThat(r.bad()).as("frames refused or out of order").isZero();
        // loss: dropped on purpose, asked for again, sent again
        assertThat(r.dropped()).isPositive();
        assertThat(r.naks()).isPositive();
        assertThat(r.retransmits()).isPositive();
        // back pressure: the node's stops filled its ring, the receiving bridge waited on it, the sending bridge's
        // offers were refused while it did
        assertThat(r.stalls()).isPositive();
        assertThat(r.ringWaits()).isPositive();
        assertThat(r.backPressured()).isPositive();
        assertThat(r.summary()).matches("[0-9]+ frames through a private pair of bridges in [0-9.]+ s \\(0 refused " +
            "by the receiving node's checks; [1-9][0-9]* retransmitted, [1-9][0-9]* back-pressured offers, " +
            "[1-9][0-9]* ring waits\\)");
        assertThat(leftOver()).isEmpty();
    }

    @Test
    void shouldGoOnWhileTheCompilersAreBusy() throws Exception
    {
        final AtomicInteger asked = new AtomicInteger();
        final BridgeWarmUp.Result r = BridgeWarmUp.run(hosts.context(true).conclude(), b -> backoff(),
            () -> asked.incrementAndGet() > 2_000, 500);

        assertThat(r.problem()).isNull();
        assertThat(asked.get()).isGreaterThan(2_000);
        assertThat(r.sent()).isGreaterThan(500);
        assertThat(r.received()).isEqualTo(r.sent());
        assertThat(leftOver()).isEmpty();
    }

    @Test
    void shouldSayWhyItStoppedAndLeaveNothingBehindWhenABridgeFails() throws Exception
    {
        final IdleStrategy failing = new IdleStrategy()
        {
            @Override
            public void idle(final int workCount)
            {
                throw new IllegalStateException("duty cycle broken on purpose");
            }

            @Override
            public void idle()
            {
                idle(0);
            }

            @Override
            public void reset()
            {
            }
        };
        final BridgeWarmUp.Result r = BridgeWarmUp.run(hosts.context(true).conclude(), b -> failing, () -> true,
            1_000);

        assertThat(r.problem()).isEqualTo("IllegalStateException: duty cycle broken on purpose");
        assertThat(r.sent()).isZero();
        assertThat(leftOver()).isEmpty();
    }

    private static IdleStrategy backoff()
    {
        return new BackoffIdleStrategy(10, 10, 1_000, 100_000);
    }

    /**
     * @return the warm-up's folders left beside the real network's.
     */
    private List<Path> leftOver() throws IOException
    {
        try (Stream<Path> files = Files.list(hosts.dirA.getParent()))
        {
            return files.filter(f -> f.getFileName().toString().startsWith(".bridge-warm-up")).toList();
        }
    }
}
