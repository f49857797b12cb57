package io.rfmrt.cli.bench.peer;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The receiving node of {@code bench hosts} warms its own receive loop up before it opens: the frames of a private
 * network go through the same loop into the handler it is given, in order (all but what the ring still held when the
 * loop stopped), and the network is gone afterwards.
 */
class BridgePeerWarmUpTest
{
    private Path root;

    @BeforeEach
    void setUp()
    {
        root = Path.of("/dev/shm", "rfmrt-bridge-peer-warm-up-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
    }

    @AfterEach
    void tearDown() throws Exception
    {
        System.clearProperty(SimNetwork.ROOT_PROPERTY);
        CliProcesses.removeTree(root);
    }

    @Test
    void shouldRunTheWarmUpFramesThroughTheReceiveLoopIntoTheHandlerInOrderAndRemoveItsNetwork() throws Exception
    {
        final AtomicLong handled = new AtomicLong();
        final AtomicLong outOfOrder = new AtomicLong();
        final AtomicLong last = new AtomicLong();
        final PeerTransport.Handler handler = (buffer, offset) ->
        {
            final long sequence = buffer.getLong(offset + PeerTransport.SEQ_OFFSET);
            if (sequence != last.get() + 1)
            {
                outOfOrder.incrementAndGet();
            }
            last.set(sequence);
            handled.incrementAndGet();
        };

        final String said = BridgePeer.warmUp("bench?dmaPolicy=backpressure&dmaWait=100000000ns", handler, 2_000);

        final long sent = Long.parseLong(said.substring(0, said.indexOf(' ')));
        assertThat(sent).isGreaterThanOrEqualTo(2_000);
        // what was still in the ring when the loop stopped is not taken
        assertThat(handled.get()).as(said).isBetween(sent - BridgePeer.SLOTS, sent);
        assertThat(outOfOrder.get()).isZero();
        try (Stream<Path> left = Files.exists(root) ? Files.list(root) : Stream.empty())
        {
            assertThat(left.toList()).as("the warm-up's network is removed").isEmpty();
        }
    }
}
