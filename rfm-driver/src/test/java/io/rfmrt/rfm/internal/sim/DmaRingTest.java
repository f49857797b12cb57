package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

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

    @Test
    void shouldHoldABackpressuredFillUntilTheHolderGivesASlotBack() throws Exception
    {
        try (DmaRing holder = DmaRing.create(network, 2, DmaMode.AUTO, DmaRingFullPolicy.BACKPRESSURE, 2, 128))
        {
            // a wait bound far above anything this test takes, so that only the holder's release ends the wait
            setBackpressureTimeout(DmaRing.file(network, 2), TimeUnit.SECONDS.toNanos(60));
            try (DmaRing sender = DmaRing.attach(network, 2))
            {
                for (int i = 1; i <= 3; i++)
                {
                    network.memory().putLong(64 * (i - 1), 1000 + i);
                }
                final long before = System.nanoTime();
                assertThat(sender.fill(network.memory(), 0, 64, 0, 1, 1)).isEqualTo(RfmStatus.SUCCESS);
                assertThat(sender.fill(network.memory(), 64, 64, 0, 1, 2)).isEqualTo(RfmStatus.SUCCESS);
                final AtomicReference<Throwable> consumerFailure = new AtomicReference<>();
                final Thread consumer = new Thread(() ->
                {
                    try
                    {
                        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        while (stalls() == 0)
                        {
                            if (System.nanoTime() - deadline > 0)
                            {
                                throw new AssertionError("the third fill never stalled");
                            }
                            Thread.onSpinWait();
                        }
                        final DmaCompletion done = new DmaCompletion();
                        assertThat(holder.takeCompleted(done)).isTrue();
                        holder.release(done);
                    }
                    catch (final Throwable ex)
                    {
                        consumerFailure.set(ex);
                    }
                }, "dma-ring-consumer");
                consumer.start();
                final RfmStatus third = sender.fill(network.memory(), 128, 64, 0, 1, 3);
                consumer.join(TimeUnit.SECONDS.toMillis(60));
                assertThat(consumerFailure.get()).isNull();
                assertThat(third).as("filled once a slot was given back, not dropped").isEqualTo(RfmStatus.SUCCESS);
                assertThat(stalls()).isEqualTo(1);
                assertThat(network.card(2).counter(RfmCounter.DMA_DROPPED.id())).isZero();
                final long after = System.nanoTime();
                // each completion points at its own slot's buffer and carries the time its copy finished
                final DmaCompletion done = new DmaCompletion();
                for (int i = 2; i <= 3; i++)
                {
                    assertThat(holder.takeCompleted(done)).isTrue();
                    assertThat(done.eventData()).isEqualTo(i);
                    assertThat(done.slot()).isEqualTo((i - 1) % 2);
                    assertThat(done.buffer().getLong(0)).isEqualTo(1000 + i);
                    assertThat(done.completionNanos()).isBetween(before, after);
                }
            }
        }
    }

    private long stalls()
    {
        return network.card(2).counter(RfmCounter.DMA_BACKPRESSURE_STALLS.id());
    }

    private static void setBackpressureTimeout(final Path file, final long nanos) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, DmaRingDescriptor.HEADER_SIZE);
            map.order(ByteOrder.nativeOrder()).putLong(DmaRingDescriptor.BACKPRESSURE_TIMEOUT_OFFSET, nanos);
            map.force();
        }
    }
}
