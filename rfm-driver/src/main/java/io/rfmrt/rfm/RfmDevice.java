package io.rfmrt.rfm;

/**
 * One RFM card as a host sees it, shaped after the RFM2g API: identity, the memory window, network events and the
 * DMA engine. Open one with {@link RfmDevices#open(String)}.
 * <p>
 * Threading: memory access and sending are safe from any thread. Each event type has at most one waiter at a time
 * ({@link RfmStatus#EVENT_IN_USE} otherwise), as on the card; a waiter owns the {@link EventInfo} it passes in.
 * Waiting blocks in the kernel: an idle waiter uses no CPU.
 */
public interface RfmDevice extends AutoCloseable
{
    /** Destination meaning every node on the ring ({@code RFM2G_NODE_ALL}). */
    int ALL_NODES = 0xFFFF;

    /** Highest node id on a ring. */
    int MAX_NODE_ID = 255;

    /** Timeout value for {@link #awaitEvent}: block until an event arrives or the wait is cancelled. */
    long INFINITE_TIMEOUT = -1L;

    /** Timeout value for {@link #awaitEvent}: take an event if one is queued, never block. */
    long NO_WAIT = 0L;

    /**
     * @return this card's node id, 0..255.
     */
    int nodeId();

    /**
     * @return the board id (0x65 for the PCIE-5565 family).
     */
    int boardId();

    /**
     * @return bytes of reflective memory.
     */
    long memorySize();

    /**
     * @return the first usable offset (0 on the emulated card).
     */
    long firstOffset();

    /**
     * @return a snapshot of the configuration.
     */
    RfmConfig config();

    /**
     * @return the memory window, the same instance on every call.
     */
    RfmWindow window();

    /**
     * Allow events of a type to interrupt this host. Events are off by default; an event of a disabled type that
     * arrives is counted ({@link RfmCounter#EVENTS_DISABLED}) and dropped.
     *
     * @param type the type.
     */
    void enableEvent(EventType type);

    /**
     * @param type the type to stop receiving.
     */
    void disableEvent(EventType type);

    /**
     * @param type the type.
     * @return whether it is enabled.
     */
    boolean isEventEnabled(EventType type);

    /**
     * Send a network event. Delivered after every write this thread made to the memory before the call.
     *
     * @param toNode a node id 0..255, or {@link #ALL_NODES}.
     * @param type   RESET or INTR1..INTR4.
     * @param data   32-bit data word.
     * @return SUCCESS, LINK_TEST_FAIL, NODE_ID_SELF, TRANSMIT_DISABLED, OUT_OF_RANGE or BAD_PARAMETER.
     */
    RfmStatus sendEvent(int toNode, EventType type, int data);

    /**
     * Send a network event whose frame the receiving card moves by DMA before it interrupts: for a receiver whose
     * DMA engine is in {@link DmaMode#AUTO} mode, the card copies {@code length} bytes at {@code rfmOffset} into the
     * receiver's next free DMA buffer, completes the descriptor, then raises the event. Receivers in on-demand mode
     * just get the event.
     *
     * @param toNode    a node id 0..255, or {@link #ALL_NODES}.
     * @param type      RESET or INTR1..INTR4.
     * @param data      32-bit data word.
     * @param rfmOffset offset of the frame in reflective memory (8-byte aligned).
     * @param length    bytes to move (a multiple of 8, at most the receiver's DMA slot size).
     * @return as {@link #sendEvent(int, EventType, int)}.
     */
    RfmStatus sendEvent(int toNode, EventType type, int data, long rfmOffset, int length);

    /**
     * Wait for an event of one type, as {@code RFM2gWaitForEvent}.
     *
     * @param type         an enabled type.
     * @param timeoutNanos {@link #INFINITE_TIMEOUT}, {@link #NO_WAIT}, or a time-out in nanoseconds.
     * @param into         filled with the event on SUCCESS.
     * @return SUCCESS, TIMED_OUT, WAIT_EVENT_CANCELED, EVENT_IN_USE, EVENT_NOT_ENABLED or NOT_OPEN.
     */
    RfmStatus awaitEvent(EventType type, long timeoutNanos, EventInfo into);

    /**
     * Take an event of a type only if one is queued, never sleeping: the drain after a wake. Same statuses as
     * {@link #awaitEvent} with {@link #NO_WAIT} (TIMED_OUT when none is queued). Backends whose driver sleeps even
     * for a zero time-out (the RFM2g Linux driver waits one jiffy) look at the queue first.
     *
     * @param type an enabled type.
     * @param into filled with the event on SUCCESS.
     * @return SUCCESS, TIMED_OUT, EVENT_IN_USE, EVENT_NOT_ENABLED or NOT_OPEN.
     */
    default RfmStatus pollEvent(final EventType type, final EventInfo into)
    {
        return awaitEvent(type, NO_WAIT, into);
    }

    /**
     * End a wait in progress on a type; the waiter returns {@link RfmStatus#WAIT_EVENT_CANCELED}. No effect when
     * nobody waits.
     *
     * @param type the type.
     * @throws RfmException when the waiter cannot be reached (an emulated card whose control block was cut short
     *                      under it).
     */
    void cancelAwait(EventType type);

    /**
     * Discard queued events of a type, as {@code RFM2gClearEvent}.
     *
     * @param type the type, or null for every type ({@code RFM2GEVENT_LAST}).
     * @return events discarded.
     */
    int clearEvents(EventType type);

    /**
     * @param counter a counter.
     * @param type    the type for per-type counters, ignored otherwise (may be null then).
     * @return its current value.
     */
    long counter(RfmCounter counter, EventType type);

    /**
     * @return SUCCESS if the ring is closed, LINK_TEST_FAIL if it is open.
     */
    RfmStatus checkRingContinuity();

    /**
     * @param on receive own events and frames ({@code RFM2gSetLoopback}).
     */
    void loopback(boolean on);

    /**
     * @return whether loopback is on.
     */
    boolean loopback();

    /**
     * @param on enable this card's transmitter ({@code RFM2gSetTransmit}).
     */
    void transmit(boolean on);

    /**
     * @return whether the transmitter is enabled.
     */
    boolean transmit();

    /**
     * @param on switch the card's LED.
     */
    void led(boolean on);

    /**
     * @return the LED state.
     */
    boolean led();

    /**
     * @return this card's DMA engine.
     */
    DmaEngine dma();

    /**
     * Release the node id and unmap everything. Idempotent.
     */
    @Override
    void close();
}
