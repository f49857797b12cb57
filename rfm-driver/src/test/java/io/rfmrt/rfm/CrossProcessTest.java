package io.rfmrt.rfm;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Behaviour that only shows between processes: each test starts a second JVM.
 */
class CrossProcessTest
{
    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimTestSupport.freshRoot();
    }

    @AfterEach
    void tearDown()
    {
        SimTestSupport.removeRoot(root);
    }

    @Test
    void shouldCarryAnEventWithItsDataFromAnotherProcess() throws Exception
    {
        try (RfmDevice receiver = RfmDevices.open("sim:xp?node=1&size=1M"))
        {
            receiver.enableEvent(EventType.INTR1);
            final Process child = SimTestSupport.startJvm(root, TestNode.class, "send", "xp", "2", "1", "INTR1", "cafe");
            final EventInfo info = new EventInfo();
            assertThat(receiver.awaitEvent(EventType.INTR1, TimeUnit.SECONDS.toNanos(30), info))
                .isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.toString()).isEqualTo("event INTR1 from node 2 data 0x0000cafe");
            assertThat(SimTestSupport.stdout(child).readLine()).isEqualTo("sent");
            assertThat(SimTestSupport.finish(child, 30)).isZero();
        }
    }

    @Test
    void shouldMakeDataWrittenBeforeAnEventVisibleWhenItArrives() throws Exception
    {
        final int count = 20_000;
        try (RfmDevice receiver = RfmDevices.open("sim:xp?node=1&size=1M"))
        {
            receiver.enableEvent(EventType.INTR1);
            final Process child = SimTestSupport.startJvm(root, TestNode.class, "ping", "xp", "2", "1",
                Integer.toString(count));
            final BufferedReader out = SimTestSupport.stdout(child);
            SimTestSupport.awaitLine(out, "ready");
            final EventInfo info = new EventInfo();
            int stale = 0;
            for (int i = 1; i <= count; i++)
            {
                assertThat(receiver.awaitEvent(EventType.INTR1, TimeUnit.SECONDS.toNanos(10), info))
                    .isEqualTo(RfmStatus.SUCCESS);
                if (info.data() != i || receiver.window().getLong((info.data() % 1024) * 8L) != info.data())
                {
                    stale++;
                }
                assertThat(receiver.sendEvent(2, EventType.INTR2, i)).isEqualTo(RfmStatus.SUCCESS);
            }
            assertThat(stale).as("events that arrived before their data").isZero();
            assertThat(out.readLine()).isEqualTo("done");
            assertThat(SimTestSupport.finish(child, 30)).isZero();
            assertThat(receiver.counter(RfmCounter.EVENTS_RECEIVED, EventType.INTR1)).isEqualTo(count);
        }
    }

    @Test
    void shouldRefuseANodeHeldByALiveProcessAndReclaimItWhenThatProcessDies() throws Exception
    {
        final Process holder = SimTestSupport.startJvm(root, TestNode.class, "hold", "xp", "5");
        try
        {
            SimTestSupport.awaitLine(SimTestSupport.stdout(holder), "ready");
            assertThatThrownBy(() -> RfmDevices.open("sim:xp?node=5&size=1M"))
                .isInstanceOf(RfmException.class)
                .hasMessage("node 5 of network 'xp' is held by live process " + holder.pid());
        }
        finally
        {
            holder.destroyForcibly().waitFor();
        }
        // killed with SIGKILL: it never released its claim, and the claim is taken over
        try (RfmDevice device = RfmDevices.open("sim:xp?node=5&size=1M"))
        {
            assertThat(device.nodeId()).isEqualTo(5);
            assertThat(device.counter(RfmCounter.EVENTS_RECEIVED, EventType.INTR1)).isZero();
        }
    }
}
