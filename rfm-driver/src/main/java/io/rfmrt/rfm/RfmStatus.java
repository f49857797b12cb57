package io.rfmrt.rfm;

/**
 * Result codes of device operations, named after the RFM2g status codes users already know.
 * <p>
 * Calls on the hot path return one of these instead of throwing; misuse (bad offsets, bad arguments) throws
 * {@link RfmException} carrying the code.
 */
public enum RfmStatus
{
    /** The call did what was asked. */
    SUCCESS,
    /** A wait ran out of time before an event arrived. */
    TIMED_OUT,
    /** Another thread already waits for this event type (one waiter per type, as on the card). */
    EVENT_IN_USE,
    /** The event type is not enabled on this card. */
    EVENT_NOT_ENABLED,
    /** A wait was cancelled by {@code cancelAwait}. */
    WAIT_EVENT_CANCELED,
    /** An offset, length or node id lies outside what the card allows. */
    OUT_OF_RANGE,
    /** An offset or length does not meet the alignment the operation needs. */
    UNALIGNED_OFFSET,
    /** The event was addressed to this node while loopback is off. */
    NODE_ID_SELF,
    /** The ring is open (link down): nothing can be sent. */
    LINK_TEST_FAIL,
    /** This card's transmitter is disabled. */
    TRANSMIT_DISABLED,
    /** The event type cannot be sent over the ring. */
    BAD_PARAMETER,
    /** A DMA transfer could not be done (ring full under the drop policy, or a rule broken). */
    DMA_FAILED,
    /** The node id is held by another live process. */
    NODE_IN_USE,
    /** The shared structures do not carry the expected magic or layout version. */
    BAD_LAYOUT,
    /** No network, device or file of that name. */
    NOT_FOUND,
    /** The device has been closed. */
    NOT_OPEN,
    /** The operating system refused a call. */
    OS_ERROR,
    /** The card or its driver does not offer this (e.g. RFM2G_NOT_SUPPORTED, RFM2G_NOT_IMPLEMENTED). */
    NOT_SUPPORTED,
    /** The card's driver failed in a way no other code names (RFM2G_DRIVER_ERROR and the rest). */
    DRIVER_ERROR
}
