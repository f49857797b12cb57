package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
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

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.CARD_COUNT_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.CARD_SIZE_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.CONTROL_FILE;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FIFO_CAPACITY_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.MEMORY_FILE;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.MEMORY_SIZE_OFFSET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Attaching to a network whose control block another process damaged: every header field that sizes or places
 * something is held against this build and against the files' real lengths, and a lie is refused in one line naming
 * the control block, the field and its value, with nothing left mapped.
 */
class ControlBlockAttachTest
{
    private Path root;
    private Path dir;
    private Path control;

    @BeforeEach
    void setUp() throws IOException
    {
        root = SimTestSupport.freshRoot();
        dir = Files.createDirectories(root.resolve("lab"));
        NetworkImage.createOrAttach(dir, "lab", 1 << 20).close();
        control = dir.resolve(CONTROL_FILE);
    }

    @AfterEach
    void tearDown()
    {
        SimTestSupport.removeRoot(root);
    }

    @Test
    void shouldAttachTheNetworkItsCreatorMade()
    {
        try (NetworkImage image = NetworkImage.attach(dir, "lab"))
        {
            assertThat(image.memorySize()).isEqualTo(1 << 20);
        }
    }

    @Test
    void shouldRefuseACardGeometryOrFifoCapacityOfAnotherBuild() throws IOException
    {
        putInt(CARD_COUNT_OFFSET, 255);
        assertRefused("card count 255, this build's is 256");
        putInt(CARD_COUNT_OFFSET, 256);
        putInt(CARD_SIZE_OFFSET, 4096);
        assertRefused("card size 4096, this build's is 73728");
        putInt(CARD_SIZE_OFFSET, 73728);
        putInt(FIFO_CAPACITY_OFFSET, 128);
        assertRefused("FIFO capacity 128, this build's is 127");
    }

    @Test
    void shouldRefuseAControlBlockCutShort() throws IOException
    {
        truncate(control, 4096);
        assertRefused("it is 4096 bytes, its 256 cards of 73728 bytes make 18878464");
        truncate(control, 100);
        assertRefused("it is 100 bytes, shorter than its 4096-byte header");
    }

    @Test
    void shouldRefuseAMemorySizeOutsideTheBoundsEvenWhenTheMemoryFileAgrees() throws IOException
    {
        // the two files agree with each other, but on a size no network can have
        truncate(dir.resolve(MEMORY_FILE), 5000);
        putLong(MEMORY_SIZE_OFFSET, 5000);
        assertRefused("memory size 5000 is not a multiple of 4096 between 4K and 1G");
        putLong(MEMORY_SIZE_OFFSET, -4096);
        assertRefused("memory size -4096 is not a multiple of 4096 between 4K and 1G");
        putLong(MEMORY_SIZE_OFFSET, 2L << 30);
        assertRefused("memory size 2147483648 is not a multiple of 4096 between 4K and 1G");
    }

    @Test
    void shouldRefuseAMemoryFileOfAnotherSizeThanTheHeaderSays() throws IOException
    {
        putLong(MEMORY_SIZE_OFFSET, 8192);
        assertRefused("memory size 8192, but " + dir.resolve(MEMORY_FILE) + " is 1048576 bytes");
    }

    private void assertRefused(final String detail)
    {
        assertThatThrownBy(() -> NetworkImage.attach(dir, "lab"))
            .isInstanceOf(RfmException.class)
            .hasMessage("network 'lab' has a foreign or corrupt control block " + control + ": " + detail)
            .satisfies(ex -> assertThat(((RfmException)ex).status()).isEqualTo(RfmStatus.BAD_LAYOUT));
    }

    private void putInt(final int offset, final int value) throws IOException
    {
        write(offset, ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, value));
    }

    private void putLong(final int offset, final long value) throws IOException
    {
        write(offset, ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, value));
    }

    private void write(final int offset, final ByteBuffer bytes) throws IOException
    {
        try (FileChannel file = FileChannel.open(control, StandardOpenOption.WRITE))
        {
            file.write(bytes, offset);
        }
    }

    private static void truncate(final Path file, final long size) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(size);
        }
    }
}
