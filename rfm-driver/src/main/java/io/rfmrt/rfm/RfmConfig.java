package io.rfmrt.rfm;

/**
 * A snapshot of a card's configuration, as {@code RFM2gGetConfig} gives it.
 *
 * @param uri          the device URI the card was opened with.
 * @param backend      backend name: {@code sim}, {@code rfm2g}, {@code bridge}.
 * @param nodeId       this card's node id, 0..255.
 * @param boardId      board id (0x65 for a PCIE-5565, which the emulator reports).
 * @param memorySize   bytes of reflective memory.
 * @param firstOffset  first usable offset.
 * @param revision     firmware / emulator layout revision.
 * @param dmaMode      how the DMA engine is driven.
 * @param dmaSlotCount descriptors (and host buffers) in the DMA ring.
 * @param dmaSlotSize  bytes per host DMA buffer.
 * @param loopback     whether this card receives what it sends.
 */
public record RfmConfig(
    String uri,
    String backend,
    int nodeId,
    int boardId,
    long memorySize,
    long firstOffset,
    int revision,
    DmaMode dmaMode,
    int dmaSlotCount,
    int dmaSlotSize,
    boolean loopback)
{
    /** Board id of the PCIE-5565 family, which the emulated card reports. */
    public static final int BOARD_ID_5565 = 0x65;
}
