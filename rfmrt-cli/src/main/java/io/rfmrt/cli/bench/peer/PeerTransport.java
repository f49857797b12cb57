package io.rfmrt.cli.bench.peer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.Map;

/**
 * A transport that a user could pick instead of rfmrt's receive path, as {@code rfmrt bench peers} runs it: a
 * sending side in the bench process (on the sender thread of the steady senders) and a receiving side in a child
 * process (on one pinned thread). Every transport moves the same frame: {@link #FRAME_BYTES} bytes, the sender's
 * {@code System.nanoTime()} stamp at {@link #STAMP_OFFSET} and the frame's number (1, 2, ...) at
 * {@link #SEQ_OFFSET}, both little-endian.
 */
public interface PeerTransport
{
    /** Bytes of every frame: the payload size of rfmrt's rows. */
    int FRAME_BYTES = 64;
    /** Offset of the sender's stamp in the frame. */
    int STAMP_OFFSET = 0;
    /** Offset of the frame's number in the frame. */
    int SEQ_OFFSET = 8;

    /**
     * @param dir     a fresh folder in {@code /dev/shm} that both sides use for this run.
     * @param variant the transport's variant (an idle strategy, a pauser, ...).
     * @param option  a transport-wide setting chosen by the bench (Aeron: the driver threading mode), or empty.
     * @return the sending side, ready before the receiver process starts.
     */
    Sender sender(Path dir, String variant, String option) throws Exception;

    /**
     * @param dir     the folder given to {@link #sender}.
     * @param variant the transport's variant.
     * @return the receiving side, in the receiver process.
     */
    Receiver receiver(Path dir, String variant) throws Exception;

    /**
     * The sending side. {@link #connect} runs on the bench's main thread, {@link #send} on its sender thread.
     */
    interface Sender extends AutoCloseable
    {
        /**
         * The receiver process is up and said ready.
         *
         * @param readyArgs what followed "ready" on its line (a UDP port, ...), maybe empty.
         */
        void connect(String readyArgs) throws Exception;

        /**
         * Send one frame now.
         *
         * @param frame {@link #FRAME_BYTES} bytes, stamped.
         * @return false when the transport refused it (back-pressure past a bound): the frame is lost.
         */
        boolean send(UnsafeBuffer frame);

        @Override
        void close() throws Exception;
    }

    /**
     * The receiving side. {@link #open} and {@link #stop} run on the receiver process's main thread, {@link #run}
     * on its pinned receive thread.
     */
    interface Receiver extends AutoCloseable
    {
        /**
         * Set up (subscribe, bind, map) before the sender starts.
         *
         * @return words to put after "ready" for the sender's {@link Sender#connect}, maybe empty.
         */
        String open() throws Exception;

        /**
         * Receive until {@link #stop}, handing every frame to the handler on this thread as it arrives.
         *
         * @param handler runs once per frame.
         */
        void run(Handler handler) throws Exception;

        /**
         * End {@link #run} soon, from another thread.
         */
        void stop();

        /**
         * The receiver's own loss counters after {@link #run} ended (why frames did not reach the handler), for the
         * transports that have them; read once, off the receive thread.
         *
         * @return counter name to value, in a stable order; empty when the transport counts none.
         */
        default Map<String, Long> lossCauses()
        {
            return Map.of();
        }

        @Override
        void close() throws Exception;
    }

    /**
     * What the receiver does with a frame: the benchmark's handler.
     */
    @FunctionalInterface
    interface Handler
    {
        /**
         * @param buffer holds the frame.
         * @param offset where it starts.
         */
        void onFrame(DirectBuffer buffer, int offset);
    }
}
