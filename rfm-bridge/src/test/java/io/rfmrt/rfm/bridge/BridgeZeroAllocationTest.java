package io.rfmrt.rfm.bridge;

import com.sun.management.ThreadMXBean;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.RfmWindow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Once warm, the whole path of a write and an event between two bridged hosts allocates nothing: the sender's stores
 * into its window and the outbound log, its bridge's drain and offer, the media drivers (INVOKER mode), the receiving
 * bridge's poll and apply, the delivery and the receiver's take. Both bridges and both nodes run on the test's
 * thread, whose allocations are measured.
 */
class BridgeZeroAllocationTest
{
    private static final int ROUNDS = 20_000;
    private static final int WINDOWS = 5;

    private TwoHosts hosts;
    private Bridge a;
    private Bridge b;

    @BeforeEach
    void setUp() throws Exception
    {
        hosts = new TwoHosts();
    }

    @AfterEach
    void tearDown()
    {
        if (a != null)
        {
            a.close();
        }
        if (b != null)
        {
            b.close();
        }
        hosts.close();
    }

    @Test
    void shouldNotAllocateOnTheWayFromOneHostToTheOtherInSteadyState()
    {
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        a = Bridge.launch(hosts.context(true));
        b = Bridge.launch(hosts.context(false));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!(a.linkUp() && b.linkUp()))
        {
            a.doWork();
            b.doWork();
            assertThat(System.nanoTime()).as("links up within 20 s").isLessThan(deadline);
        }
        try (RfmDevice sender = TwoHosts.open(hosts.dirA, 1); RfmDevice receiver = TwoHosts.open(hosts.dirB, 2))
        {
            receiver.enableEvent(EventType.INTR1);
            // until node 2 is held on host a (a HELLO), a send to it is undelivered
            while (!TwoHosts.remoteHeld(hosts.dirA, 2))
            {
                a.doWork();
                b.doWork();
                assertThat(System.nanoTime()).as("node 2 seen on host a within 20 s").isLessThan(deadline);
            }
            final EventInfo info = new EventInfo();
            final long[] checksum = new long[1];
            rounds(sender, receiver, info, checksum, 1);
            final long tid = Thread.currentThread().getId();
            final long[] windows = new long[WINDOWS];
            int measured = 0;
            do
            {
                final long before = threads.getThreadAllocatedBytes(tid);
                rounds(sender, receiver, info, checksum, 1 + (long)(measured + 1) * ROUNDS);
                windows[measured] = threads.getThreadAllocatedBytes(tid) - before;
            }
            while (windows[measured++] != 0 && measured < WINDOWS);
            assertThat(windows[measured - 1]).as("bytes allocated per window of %d writes and events: %s", ROUNDS,
                java.util.Arrays.toString(windows)).isZero();
        }
    }

    private void rounds(final RfmDevice sender, final RfmDevice receiver, final EventInfo info, final long[] checksum,
        final long first)
    {
        final RfmWindow out = sender.window();
        final RfmWindow in = receiver.window();
        for (long i = first; i < first + ROUNDS; i++)
        {
            out.putLongRelease(0x3000, i);
            final long refusedUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (sender.sendEvent(2, EventType.INTR1, (int)i) != RfmStatus.SUCCESS)
            {
                // a loaded machine held this thread past the peer time-out: the link went down and comes back (that
                // window allocates; the next one is measured)
                a.doWork();
                b.doWork();
                if (System.nanoTime() > refusedUntil)
                {
                    throw new AssertionError("send " + i + " refused for 20 s");
                }
            }
            while (receiver.pollEvent(EventType.INTR1, info) != RfmStatus.SUCCESS)
            {
                a.doWork();
                b.doWork();
            }
            if (info.data() != (int)i || in.getLongAcquire(0x3000) < i)
            {
                throw new AssertionError("event " + info.data() + " with " + in.getLongAcquire(0x3000) + " at " + i);
            }
            checksum[0] += info.data();
        }
    }
}
