package io.rfmrt.rfm.internal.rfm2g;

import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
import io.rfmrt.rfm.rfm2g.Rfm2gCard;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Error paths through the real C boundary: every status here comes back from a native call of the stand-in.
 */
class Rfm2gErrorPathTest
{
    private Path root;
    private RfmDevice sim;
    private Rfm2gCard card;
    private UnsafeBuffer scratch;

    @BeforeEach
    void setUp()
    {
        root = SimTestSupport.freshRoot();
        sim = RfmDevices.open("sim:errors?node=1&size=64K");
        card = (Rfm2gCard)RfmDevices.open("rfm2g:" + Rfm2gStandin.deviceNode(root, "errors", 5, 16384) +
            "?dmaBase=0x40000000&dmaSlots=4&dmaSlotSize=1024");
        scratch = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
    }

    @AfterEach
    void tearDown()
    {
        card.close();
        sim.close();
        SimTestSupport.removeRoot(root);
    }

    @Test
    void shouldRefuseABadHandle()
    {
        final long address = scratch.addressOffset();
        assertThat(Rfm2gCodes.statusName(Rfm2gLibrary.RFM2gPeek32(0, 0, address))).isEqualTo("RFM2G_NULL_DESCRIPTOR");
        final int code = Rfm2gLibrary.RFM2gPeek32(address, 0, address);
        assertThat(Rfm2gCodes.statusName(code)).isEqualTo("RFM2G_BAD_PARAMETER_1");
        assertThat(Rfm2gCodes.status(code)).isEqualTo(RfmStatus.BAD_PARAMETER);
        assertThat(Rfm2gLibrary.RFM2gErrorMsg(code)).isEqualTo("parameter 1 is invalid");
    }

    @Test
    void shouldRefuseBadOffsets()
    {
        assertThatThrownBy(() -> card.peek(4, 2)).isInstanceOf(RfmException.class)
            .hasMessageContaining("RFM2gPeek32").hasMessageContaining("RFM2G_UNALIGNED_OFFSET")
            .extracting(ex -> ((RfmException)ex).status()).isEqualTo(RfmStatus.UNALIGNED_OFFSET);
        assertThatThrownBy(() -> card.poke(8, 64 * 1024, 1)).isInstanceOf(RfmException.class)
            .hasMessageContaining("RFM2G_OUT_OF_RANGE")
            .extracting(ex -> ((RfmException)ex).status()).isEqualTo(RfmStatus.OUT_OF_RANGE);
        final ByteBuffer buffer = BufferUtil.allocateDirectAligned(256, 64);
        assertThatThrownBy(() -> card.read(64 * 1024 - 128, buffer, 0, 256)).isInstanceOf(RfmException.class)
            .hasMessageContaining("RFM2gRead failed: RFM2G_OUT_OF_RANGE")
            .extracting(ex -> ((RfmException)ex).status()).isEqualTo(RfmStatus.OUT_OF_RANGE);
    }

    @Test
    void shouldRefuseAMappingBeyondTheWindowOrTheDmaBuffer()
    {
        final long handle = ((Rfm2gDevice)card).handle();
        final long address = scratch.addressOffset();
        assertThat(Rfm2gCodes.statusName(Rfm2gLibrary.RFM2gUserMemoryBytes(handle, address, 0, 64 * 1024 + 4096)))
            .isEqualTo("RFM2G_OUT_OF_RANGE");
        assertThat(Rfm2gCodes.statusName(Rfm2gLibrary.RFM2gUserMemoryBytes(handle, address, 64, 4096)))
            .isEqualTo("RFM2G_BAD_PARAMETER_3");
        assertThat(Rfm2gCodes.statusName(Rfm2gLibrary.RFM2gUserMemoryBytes(handle, address,
            0x40000000L | Rfm2gCodes.DMA_MMAP_OFFSET, 32768))).isEqualTo("RFM2G_OUT_OF_RANGE");
        // and the backend refuses a ring larger than the reserved buffer with the vendor status
        assertThatThrownBy(() -> RfmDevices.open("rfm2g:" + Rfm2gStandin.deviceNode(root, "errors", 6, 4096) +
            "?dmaBase=0x40000000&dmaSlots=4&dmaSlotSize=2048")).isInstanceOf(RfmException.class)
            .hasMessageContaining("RFM2G_DMA_MMAP_OFFSET").hasMessageContaining("RFM2G_OUT_OF_RANGE");
    }

    @Test
    void shouldTimeOutAWaitInMilliseconds()
    {
        card.enableEvent(EventType.INTR3);
        final EventInfo info = new EventInfo();
        assertThat(card.awaitEvent(EventType.INTR3, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.TIMED_OUT);
        assertThat(card.awaitEvent(EventType.INTR3, TimeUnit.MILLISECONDS.toNanos(20), info))
            .isEqualTo(RfmStatus.TIMED_OUT);
        assertThat(card.counter(RfmCounter.AWAIT_TIMEOUTS, null)).isEqualTo(2);
        assertThat(card.eventStats(EventType.INTR3).timeoutMs()).isEqualTo(20);
        assertThat(Rfm2gDevice.timeoutMillis(1)).isEqualTo(1);
        assertThat(Rfm2gDevice.timeoutMillis(RfmDevice.INFINITE_TIMEOUT)).isEqualTo(0xFFFFFFFF);
        // not enabled, nothing queued: the driver says so
        assertThat(card.awaitEvent(EventType.INTR4, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.EVENT_NOT_ENABLED);
    }

    @Test
    void shouldRefuseASecondWaiterOnOneTypeAndCancelTheFirst() throws Exception
    {
        card.enableEvent(EventType.INTR1);
        // the first waiter retries if a probe below held the driver's flag at the moment it came in
        final CompletableFuture<RfmStatus> first = CompletableFuture.supplyAsync(() ->
        {
            RfmStatus status;
            do
            {
                status = card.awaitEvent(EventType.INTR1, RfmDevice.INFINITE_TIMEOUT, new EventInfo());
            }
            while (status == RfmStatus.EVENT_IN_USE);
            return status;
        });
        final EventInfo info = new EventInfo();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        RfmStatus second;
        do
        {
            second = card.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, info);
            Thread.onSpinWait();
        }
        while (second == RfmStatus.TIMED_OUT && System.nanoTime() < deadline);
        assertThat(second).isEqualTo(RfmStatus.EVENT_IN_USE);
        // the driver's own answer, on a structure of this thread's: the first waiter is inside RFM2gWaitForEvent
        final UnsafeBuffer own = new UnsafeBuffer(BufferUtil.allocateDirectAligned(Rfm2gCodes.EVENT_INFO_SIZE, 64));
        own.putInt(Rfm2gCodes.EVENT_INFO_EVENT, Rfm2gCodes.vendorEvent(EventType.INTR1));
        own.putInt(Rfm2gCodes.EVENT_INFO_TIMEOUT, Rfm2gCodes.NO_WAIT);
        final long handle = ((Rfm2gDevice)card).handle();
        int code;
        do
        {
            code = Rfm2gLibrary.RFM2gWaitForEvent(handle, own.addressOffset());
            Thread.onSpinWait();
        }
        while (code != Rfm2gCodes.EVENT_IN_USE && System.nanoTime() < deadline);
        assertThat(Rfm2gCodes.statusName(code)).isEqualTo("RFM2G_EVENT_IN_USE");
        // another type is free
        card.enableEvent(EventType.INTR2);
        assertThat(card.awaitEvent(EventType.INTR2, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.TIMED_OUT);
        while (!first.isDone() && System.nanoTime() < deadline)
        {
            card.cancelAwait(EventType.INTR1);
            Thread.sleep(1);
        }
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(RfmStatus.WAIT_EVENT_CANCELED);
        assertThat(card.counter(RfmCounter.AWAIT_CANCELS, null)).isEqualTo(1);
    }

    @Test
    void shouldNameTheLibraryAndThePathTriedWhenTheLibraryIsMissing()
    {
        assertThatThrownBy(() -> Rfm2gLibrary.load("rfm2g-absent")).isInstanceOf(RfmException.class)
            .hasMessageContaining("'rfm2g-absent' (librfm2g-absent.so)")
            .hasMessageContaining("jna.library.path=" + System.getProperty("jna.library.path"))
            .hasMessageNotContaining("\n")
            .extracting(ex -> ((RfmException)ex).status()).isEqualTo(RfmStatus.NOT_FOUND);
        final String was = System.getProperty(Rfm2gLibrary.LIBRARY_PROPERTY);
        System.setProperty(Rfm2gLibrary.LIBRARY_PROPERTY, "/opt/nowhere/librfm2g.so");
        try
        {
            assertThatThrownBy(() -> RfmDevices.open("rfm2g:/dev/rfm2g0")).isInstanceOf(RfmException.class)
                .hasMessageStartingWith("rfm2g backend: cannot load the vendor library '/opt/nowhere/librfm2g.so'")
                .hasMessageNotContaining("\n");
        }
        finally
        {
            if (was == null)
            {
                System.clearProperty(Rfm2gLibrary.LIBRARY_PROPERTY);
            }
            else
            {
                System.setProperty(Rfm2gLibrary.LIBRARY_PROPERTY, was);
            }
        }
    }

    @Test
    void shouldNameAMissingDeviceNodeAndBadUris()
    {
        assertThatThrownBy(() -> RfmDevices.open("rfm2g:" + root.resolve("rfm2g9"))).isInstanceOf(RfmException.class)
            .hasMessageContaining("RFM2G_NO_RFM2G_BOARD").hasMessageContaining("does not exist")
            .extracting(ex -> ((RfmException)ex).status()).isEqualTo(RfmStatus.NOT_FOUND);
        assertThatThrownBy(() -> RfmDevices.open("rfm2g:/dev/rfm2g0?dma=auto")).isInstanceOf(RfmException.class)
            .hasMessageContaining("does not offer dma=auto")
            .extracting(ex -> ((RfmException)ex).status()).isEqualTo(RfmStatus.NOT_SUPPORTED);
        assertThatThrownBy(() -> RfmDevices.open("rfm2g:/dev/rfm2g0?node=1")).isInstanceOf(RfmException.class)
            .hasMessageContaining("unknown parameter 'node'");
        assertThatThrownBy(() -> RfmDevices.open("rfm2g:/dev/rfm2g0?dmaSlots=3")).isInstanceOf(RfmException.class)
            .hasMessageContaining("dmaSlots 3 is not a power of two");
        assertThatThrownBy(() -> RfmDevices.open("rfm2g:/dev/rfm2g0?dmaBase=0x1234")).isInstanceOf(RfmException.class)
            .hasMessageContaining("not page aligned");
    }

    @Test
    void shouldRefuseASecondOpenOfAHeldNode()
    {
        assertThatThrownBy(() -> RfmDevices.open("rfm2g:" + Rfm2gStandin.deviceNode(root, "errors", 1, 0)))
            .isInstanceOf(RfmException.class).hasMessageContaining("RFM2G_NOT_OPEN");
    }
}
