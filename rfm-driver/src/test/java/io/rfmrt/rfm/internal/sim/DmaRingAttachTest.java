package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static io.rfmrt.rfm.internal.sim.DmaRingDescriptor.BACKPRESSURE_TIMEOUT_OFFSET;
import static io.rfmrt.rfm.internal.sim.DmaRingDescriptor.HEADER_SIZE;
import static io.rfmrt.rfm.internal.sim.DmaRingDescriptor.MAGIC_OFFSET;
import static io.rfmrt.rfm.internal.sim.DmaRingDescriptor.MODE_OFFSET;
import static io.rfmrt.rfm.internal.sim.DmaRingDescriptor.NODE_OFFSET;
import static io.rfmrt.rfm.internal.sim.DmaRingDescriptor.SLOT_COUNT_OFFSET;
import static io.rfmrt.rfm.internal.sim.DmaRingDescriptor.SLOT_SIZE_OFFSET;
import static io.rfmrt.rfm.internal.sim.DmaRingDescriptor.VERSION_OFFSET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A sender mapping another node's DMA ring file, which any process of the group may have cut short or written over:
 * each header field a fill relies on is held against this build's bounds and against the file's length, and a ring
 * that fails one is refused in one line naming the file, the field and its value, before any fill can reach past the
 * mapping.
 */
class DmaRingAttachTest
{
    /** A ring of 64 slots of 2048 bytes: descriptors up to 8192, buffers to 8192 + 64 x 2048. */
    private static final long GOOD_SIZE = 139_264;

    private Path root;
    private NetworkImage network;
    private Path file;

    @BeforeEach
    void setUp() throws IOException
    {
        root = SimTestSupport.freshRoot();
        network = NetworkImage.createOrAttach(Files.createDirectories(root.resolve("ring")), "ring", 1 << 20);
        DmaRing.create(network, 2, DmaMode.AUTO, DmaRingFullPolicy.DROP_NEWEST, 64, 2048).close();
        file = DmaRing.file(network, 2);
    }

    @AfterEach
    void tearDown()
    {
        network.close();
        SimTestSupport.removeRoot(root);
    }

    @Test
    void shouldAttachTheRingItsHolderMade() throws IOException
    {
        assertThat(Files.size(file)).isEqualTo(GOOD_SIZE);
        try (DmaRing ring = DmaRing.attach(network, 2))
        {
            assertThat(ring.slotCount()).isEqualTo(64);
            assertThat(ring.slotSize()).isEqualTo(2048);
        }
    }

    @Test
    void shouldRefuseAFileCutToItsHeader() throws IOException
    {
        truncate(HEADER_SIZE);
        assertRefused("is 4096 bytes, but its header's slot count 64 and slot size 2048 need 139264");
    }

    @Test
    void shouldRefuseAFileOneByteShortOfItsBuffers() throws IOException
    {
        truncate(GOOD_SIZE - 1);
        assertRefused("is 139263 bytes, but its header's slot count 64 and slot size 2048 need 139264");
    }

    @Test
    void shouldRefuseAFileShorterThanTheHeader() throws IOException
    {
        truncate(100);
        assertRefused("is 100 bytes, shorter than its 4096-byte header");
        truncate(0);
        assertRefused("is 0 bytes, shorter than its 4096-byte header");
    }

    @Test
    void shouldRefuseAHeaderThatPromisesMoreThanTheFileHolds() throws IOException
    {
        // the file is whole, the header lies: a fill of slot 63 would land 135168 bytes past the end
        damage(h -> h.putInt(SLOT_SIZE_OFFSET, 4096));
        assertRefused("is 139264 bytes, but its header's slot count 64 and slot size 4096 need 270336");
        damage(h ->
        {
            h.putInt(SLOT_SIZE_OFFSET, 2048);
            h.putInt(SLOT_COUNT_OFFSET, 128);
        });
        assertRefused("is 139264 bytes, but its header's slot count 128 and slot size 2048 need 274432");
    }

    @Test
    void shouldRefuseASlotCountOrSizeOutsideTheBuildsBounds() throws IOException
    {
        damage(h -> h.putInt(SLOT_COUNT_OFFSET, 3));
        assertRefused("has a corrupt header: slot count 3 is not a power of two between 2 and 65536");
        damage(h -> h.putInt(SLOT_COUNT_OFFSET, 0));
        assertRefused("has a corrupt header: slot count 0 is not a power of two between 2 and 65536");
        damage(h -> h.putInt(SLOT_COUNT_OFFSET, Integer.MIN_VALUE));
        assertRefused("has a corrupt header: slot count -2147483648 is not a power of two between 2 and 65536");
        damage(h -> h.putInt(SLOT_COUNT_OFFSET, 1 << 17));
        assertRefused("has a corrupt header: slot count 131072 is not a power of two between 2 and 65536");
        damage(h ->
        {
            h.putInt(SLOT_COUNT_OFFSET, 64);
            h.putInt(SLOT_SIZE_OFFSET, 100);
        });
        assertRefused("has a corrupt header: slot size 100 is not a multiple of 64 between 64 and 1M");
        damage(h -> h.putInt(SLOT_SIZE_OFFSET, -64));
        assertRefused("has a corrupt header: slot size -64 is not a multiple of 64 between 64 and 1M");
        damage(h -> h.putInt(SLOT_SIZE_OFFSET, (1 << 20) + 64));
        assertRefused("has a corrupt header: slot size 1048640 is not a multiple of 64 between 64 and 1M");
    }

    @Test
    void shouldRefuseAForeignMagicOrVersion() throws IOException
    {
        damage(h -> h.putLong(MAGIC_OFFSET, 0x1122334455667788L));
        assertRefused("has a foreign or corrupt header: magic 0x1122334455667788, expected 0x414d4454524d4652");
        damage(h ->
        {
            h.putLong(MAGIC_OFFSET, DmaRingDescriptor.MAGIC);
            h.putInt(VERSION_OFFSET, 7);
        });
        assertRefused("has a foreign or corrupt header: layout version 7, this build reads 1");
    }

    @Test
    void shouldRefuseAnUnknownModeAnotherNodesRingAndAnUnboundedBackpressureWait() throws IOException
    {
        damage(h -> h.putInt(MODE_OFFSET, 9));
        assertRefused("has unknown mode id 9 or ring-full policy id 0");
        damage(h ->
        {
            h.putInt(MODE_OFFSET, DmaMode.AUTO.id());
            h.putInt(NODE_OFFSET, 7);
        });
        assertRefused("has node id 7 in its header, expected 2");
        damage(h ->
        {
            h.putInt(NODE_OFFSET, 2);
            h.putLong(BACKPRESSURE_TIMEOUT_OFFSET, -1);
        });
        assertRefused("has a backpressure time-out of -1 ns, not between 0 and 3600000000000 ns");
        damage(h -> h.putLong(BACKPRESSURE_TIMEOUT_OFFSET, Long.MAX_VALUE));
        assertRefused("has a backpressure time-out of 9223372036854775807 ns, not between 0 and 3600000000000 ns");
        damage(h -> h.putLong(BACKPRESSURE_TIMEOUT_OFFSET, TimeUnit.HOURS.toNanos(1)));
        try (DmaRing ring = DmaRing.attach(network, 2))
        {
            assertThat(ring.slotCount()).as("an hour is the longest wait a ring may ask for").isEqualTo(64);
        }
    }

    private void assertRefused(final String detail)
    {
        assertThatThrownBy(() -> DmaRing.attach(network, 2))
            .isInstanceOf(RfmException.class)
            .hasMessage("DMA ring " + file + " " + detail)
            .satisfies(ex -> assertThat(((RfmException)ex).status()).isEqualTo(RfmStatus.BAD_LAYOUT));
    }

    private void truncate(final long size) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(size);
        }
    }

    private void damage(final Consumer<UnsafeBuffer> change) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.nativeOrder());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            channel.read(header, 0);
            change.accept(new UnsafeBuffer(header));
            header.clear();
            channel.write(header, 0);
        }
    }
}
