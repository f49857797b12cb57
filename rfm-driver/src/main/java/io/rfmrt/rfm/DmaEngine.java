package io.rfmrt.rfm;

/**
 * A card's DMA engine: a ring of descriptors over a pool of page-aligned, locked, pre-touched host buffers.
 * <p>
 * Ownership moves round the ring through three indexes, each advanced by one side only:
 * <pre>
 *   free ≤ completed ≤ hardware ≤ free + slotCount
 *
 *   hardware : descriptors the engine has filled (the card, or {@link #submit} in on-demand mode)
 *   completed: descriptors the ISR side has taken ({@link #takeCompleted})
 *   free     : descriptors the consumer has given back ({@link #release})
 * </pre>
 * Indexes are published with release stores and read with acquire loads; there are no locks.
 * <p>
 * The card's rules are checked at submit: RFM offset 8-byte aligned, destination 16-byte aligned, length a multiple
 * of 8 and at most the slot size. A broken rule throws {@link RfmException} naming the value.
 * <p>
 * Threading: {@link #takeCompleted} from one thread (the ISR side), {@link #release} from one thread (the
 * consumer); {@link #submit} from the ISR side in on-demand mode.
 */
public interface DmaEngine
{
    /** Alignment of the RFM source offset. */
    int RFM_OFFSET_ALIGNMENT = 8;

    /** Alignment of the host destination address. */
    int DESTINATION_ALIGNMENT = 16;

    /** Lengths are a multiple of this. */
    int LENGTH_MULTIPLE = 8;

    /**
     * @return how the ring is filled.
     */
    DmaMode mode();

    /**
     * Capability query: whether the card can fill the ring in a mode. The emulated card offers both; the RFM2g
     * card offers only {@link DmaMode#ON_DEMAND} (the receiver reads with {@code RFM2gRead} above the DMA
     * threshold; no card copies into another host's buffers on arrival).
     *
     * @param mode a mode.
     * @return true when this engine can run in it.
     */
    default boolean supports(final DmaMode mode)
    {
        return true;
    }

    /**
     * @return what happens when the ring is full.
     */
    DmaRingFullPolicy policy();

    /**
     * @return descriptors in the ring, a power of two.
     */
    int slotCount();

    /**
     * @return bytes per host buffer, a multiple of 64.
     */
    int slotSize();

    /**
     * On-demand transfer: copy {@code length} bytes of reflective memory at {@code rfmOffset} into the next free
     * host buffer at {@code destOffset}, complete the descriptor. The completion is then taken with
     * {@link #takeCompleted}.
     *
     * @param rfmOffset  8-byte aligned source offset.
     * @param length     a multiple of 8, {@code destOffset + length <= slotSize()}.
     * @param destOffset 16-byte aligned offset inside the host buffer.
     * @return SUCCESS, or DMA_FAILED when the ring is full (counted).
     * @throws RfmException when a rule is broken.
     */
    RfmStatus submit(long rfmOffset, int length, int destOffset);

    /**
     * ISR side: take the oldest completed descriptor, if any.
     *
     * @param into filled with the descriptor and a view of its host buffer.
     * @return true when a descriptor was taken.
     */
    boolean takeCompleted(DmaCompletion into);

    /**
     * Consumer side: give a taken descriptor back to the engine. Descriptors are released in the order taken.
     *
     * @param done a completion returned by {@link #takeCompleted}.
     * @throws IllegalStateException if released out of order.
     */
    void release(DmaCompletion done);

    /**
     * @return descriptors filled by the engine so far.
     */
    long hardwareIndex();

    /**
     * @return descriptors taken by the ISR side so far.
     */
    long completedIndex();

    /**
     * @return descriptors given back by the consumer so far.
     */
    long freeIndex();
}
