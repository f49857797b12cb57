package io.rfmrt.rfm.rfm2g;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;

import java.nio.ByteBuffer;

/**
 * An {@link RfmDevice} on an RFM2g card (PCIE-5565 family) through the vendor library, opened with
 * {@code RfmDevices.open("rfm2g:/dev/rfm2g0?...")}. Adds what only the vendor API has: the driver version, the DMA
 * threshold, the driver's event statistics, the vendor's peek/poke and read/write calls.
 * <p>
 * Threading: as {@link RfmDevice}. The calls added here are not for the hot path; they are serialised on the card.
 * Failures throw {@link io.rfmrt.rfm.RfmException} naming the vendor call, the vendor status and its message.
 */
public interface Rfm2gCard extends RfmDevice
{
    /**
     * @return the device node the card was opened on, e.g. {@code /dev/rfm2g0}.
     */
    String devicePath();

    /**
     * @return the driver version from {@code RFM2gGetConfig}.
     */
    String driverVersion();

    /**
     * @return the product name from {@code RFM2gGetConfig}.
     */
    String productName();

    /**
     * @return the transfer size, bytes, from which {@code RFM2gRead}/{@code RFM2gWrite} use DMA;
     * {@code 0xFFFFFFFF} = never (the Linux driver's default).
     */
    long dmaThreshold();

    /**
     * @param bytes the new threshold, 0..0xFFFFFFFF.
     */
    void dmaThreshold(long bytes);

    /**
     * @return whether the host DMA buffers lie in the boot-reserved DMA buffer ({@code mem=} reservation, mapped
     * with {@code RFM2G_DMA_MMAP_OFFSET}); without it the driver does every read by PIO, silently.
     */
    boolean dmaBufferReserved();

    /**
     * @param type an event type.
     * @return the driver's statistics of the type's queue.
     */
    Rfm2gEventStats eventStats(EventType type);

    /**
     * Reset the driver's count and statistics of a type ({@code RFM2gClearEventCount}, {@code RFM2gClearEventStats}).
     *
     * @param type an event type, or null for every type.
     */
    void clearEventCounts(EventType type);

    /**
     * Vendor peek ({@code RFM2gPeek8/16/32/64}).
     *
     * @param width  1, 2, 4 or 8 bytes.
     * @param offset offset aligned to the width.
     * @return the value, zero-extended.
     */
    long peek(int width, long offset);

    /**
     * Vendor poke ({@code RFM2gPoke8/16/32/64}).
     *
     * @param width  1, 2, 4 or 8 bytes.
     * @param offset offset aligned to the width.
     * @param value  the value; the low {@code width} bytes are written.
     */
    void poke(int width, long offset, long value);

    /**
     * {@code RFM2gRead}: by DMA when {@code length} reaches the threshold and the destination lies in the DMA
     * buffer, by PIO otherwise.
     *
     * @param rfmOffset source offset.
     * @param dst       a direct buffer.
     * @param index     index in dst.
     * @param length    bytes.
     */
    void read(long rfmOffset, ByteBuffer dst, int index, int length);

    /**
     * {@code RFM2gWrite}, the mirror of {@link #read}.
     *
     * @param rfmOffset destination offset.
     * @param src       a direct buffer.
     * @param index     index in src.
     * @param length    bytes.
     */
    void write(long rfmOffset, ByteBuffer src, int index, int length);
}
