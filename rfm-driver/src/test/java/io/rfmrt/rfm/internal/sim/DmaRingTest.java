package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's DMA ring seen from both of its sides: the holder that creates it and takes the completions, and a sender
 * that attaches it and fills it as the card would, each through its own mapping of the ring file.
 */
class DmaRingTest
{
    private Path root;
    private NetworkImage network;

    @BeforeEach
    void setUp() throws IOException
    {
        root = SimTestSupport.freshRoot();
        final Path dir = Files.createDirectories(root.resolve("ring"));
        network = NetworkImage.createOrAttach(dir, "ring", 1 << 20);
    }

    @AfterEach
    void tearDown()
    {
        network.close();
        SimTestSupport.removeRoot(root);
    }

    @Test
    void shouldLetOnlyTheHolderLockTheBuffersAndHandTheSendersFillsToIt()
    {
        assertThat(DmaRing.attach(network, 2)).as("no ring yet").isNull();
        try (DmaRing holder = DmaRing.create(network, 2, DmaMode.AUTO, DmaRingFullPolicy.DROP_NEWEST, 4, 128);
            DmaRing sender = DmaRing.attach(network, 2))
        {
            assertThat(sender.locked()).as("a sender never locks the holder's buffers").isFalse();
            assertThat(sender.slotCount()).isEqualTo(4);
            assertThat(sender.slotSize()).isEqualTo(128);
            assertThat(sender.mode()).isEqualTo(DmaMode.AUTO);
            assertThat(sender.policy()).isEqualTo(DmaRingFullPolicy.DROP_NEWEST);

            network.memory().putLong(0x100, 0x1122334455667788L);
            assertThat(sender.fill(network.memory(), 0x100, 16, 32, 1, 7)).isEqualTo(RfmStatus.SUCCESS);
            final DmaCompletion done = new DmaCompletion();
            assertThat(holder.takeCompleted(done)).isTrue();
            assertThat(done.rfmOffset()).isEqualTo(0x100);
            assertThat(done.length()).isEqualTo(16);
            assertThat(done.destOffset()).isEqualTo(32);
            assertThat(done.sourceNode()).isEqualTo(1);
            assertThat(done.eventData()).isEqualTo(7);
            assertThat(done.buffer().getLong(32)).isEqualTo(0x1122334455667788L);
            assertThat(holder.takeCompleted(done)).as("one fill, one completion").isFalse();
        }
    }
}
