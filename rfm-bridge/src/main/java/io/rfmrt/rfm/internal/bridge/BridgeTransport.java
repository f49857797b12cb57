package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.bridge.BridgeContext;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;

/**
 * What the bridge's protocol needs of its messaging, and all it sees of it: one ordered, reliable stream out to each
 * peer, and the streams of every peer in. {@link AeronBridgeTransport} gives it over Aeron (UDP, a media driver run by
 * the bridge's own duty cycle); the deterministic simulation of the bridge gives it over simulated links and a
 * simulated clock, to the same {@link BridgeAgent}.
 * <p>
 * What the protocol must expect of an implementation (Aeron's behaviour, which the simulation reproduces):
 * <pre>
 *   offer        a message accepted (result &gt; 0) is delivered once, in order, to the image of that session at
 *                the peer, unless the image ends first (onSessionGone there): then what was not yet delivered is
 *                lost, and the same session may come back as a new image that starts at the stream's position
 *                now, not where the old one stopped.
 *   isConnected  the peer's receiver acknowledged the stream lately; false while one direction of the link is
 *                down, the peer is stopped or gone. While not connected, offer returns NOT_CONNECTED.
 *   back pressure offer returns BACK_PRESSURED while the peer has not taken what was sent before (a slow or
 *                stopped peer); nothing is sent then.
 *   sessions     every stream opened has a session id of its own; a peer that restarts opens new ones.
 * </pre>
 * Results use {@link io.aeron.Publication}'s codes. One thread: the bridge's duty cycle calls everything here, and
 * the receiver is called back only from {@link #doWork()} and {@link #poll(int)}.
 */
public interface BridgeTransport extends AutoCloseable
{
    /**
     * Called with what arrives, on the duty cycle's thread.
     */
    interface Receiver
    {
        /**
         * @param buffer    holding the message.
         * @param offset    where it starts.
         * @param length    its length.
         * @param sessionId the session of the stream it came on.
         * @return true to go on; false to end the poll after this message (taken: it is not handed over again), so
         *         that the duty cycle runs its timers before the next one.
         */
        boolean onMessage(DirectBuffer buffer, int offset, int length, int sessionId);

        /**
         * @return true once a message of this poll was cut short: every message after it, on any stream, is left in
         *         the transport (not taken) for the next poll, so that the kept rest is applied first.
         */
        boolean pollEnded();

        /**
         * The image of a session ended (nothing heard from it for the liveness time-out, or its stream closed):
         * whatever it had not delivered is lost.
         *
         * @param sessionId the session.
         */
        void onSessionGone(int sessionId);
    }

    /**
     * A stream out to one peer.
     */
    interface Stream
    {
        /**
         * @param buffer message.
         * @param offset where it starts.
         * @param length its length.
         * @return the new stream position (&gt; 0) when accepted; otherwise one of {@link io.aeron.Publication}'s
         *         NOT_CONNECTED, BACK_PRESSURED, ADMIN_ACTION, CLOSED, MAX_POSITION_EXCEEDED.
         */
        long offer(DirectBuffer buffer, int offset, int length);

        /**
         * @return whether the peer's receiver takes this stream now.
         */
        boolean isConnected();

        /**
         * Close the stream; the peer's image of it ends once it notices.
         */
        void close();
    }

    /**
     * Makes the transport of one bridge.
     */
    @FunctionalInterface
    interface Factory
    {
        /**
         * @param ctx          the bridge's concluded settings.
         * @param receiver     called with what arrives.
         * @param errorHandler told of the transport's errors (counted by the bridge).
         * @return the transport, listening.
         */
        BridgeTransport open(BridgeContext ctx, Receiver receiver, ErrorHandler errorHandler);
    }

    /**
     * Run the transport's own duties (a media driver, a client conductor) once.
     *
     * @return work done.
     */
    int doWork();

    /**
     * Hand at most {@code limit} arrived messages to the receiver, fewer when it asks to stop.
     *
     * @param limit most messages.
     * @return messages handed over.
     */
    int poll(int limit);

    /**
     * Open a stream to a peer.
     *
     * @param channel the peer's channel (its endpoint).
     * @return the stream, or null when refused for now (the peer's network unreachable): counted, tried again.
     */
    Stream open(String channel);

    /**
     * Stop: streams, subscription, driver. Idempotent.
     */
    @Override
    void close();
}
