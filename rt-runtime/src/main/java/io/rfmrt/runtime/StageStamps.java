package io.rfmrt.runtime;

/**
 * The time stamps of one frame so far, handed to {@link FrameHandler#onFrame}; a flyweight reused for every frame.
 */
public final class StageStamps
{
    private long seq;
    private int source;
    private long sendNanos;
    private long wokeNanos;
    private long validatedNanos;
    private long consumerStartNanos;

    /**
     * Fill; used by the receive path.
     *
     * @param seq                frame number.
     * @param source             publisher node.
     * @param sendNanos          publisher's stamp.
     * @param wokeNanos          ISR-wake thread woke.
     * @param validatedNanos     frame validated in host memory.
     * @param consumerStartNanos consumer took it.
     * @return this.
     */
    public StageStamps set(final long seq, final int source, final long sendNanos, final long wokeNanos,
        final long validatedNanos, final long consumerStartNanos)
    {
        this.seq = seq;
        this.source = source;
        this.sendNanos = sendNanos;
        this.wokeNanos = wokeNanos;
        this.validatedNanos = validatedNanos;
        this.consumerStartNanos = consumerStartNanos;
        return this;
    }

    /**
     * @return frame number.
     */
    public long seq()
    {
        return seq;
    }

    /**
     * @return publisher node id.
     */
    public int source()
    {
        return source;
    }

    /**
     * @return publisher's {@code nanoTime} at publish.
     */
    public long sendNanos()
    {
        return sendNanos;
    }

    /**
     * @return when the ISR-wake thread woke for the frame's interrupt (or the poll found it).
     */
    public long wokeNanos()
    {
        return wokeNanos;
    }

    /**
     * @return when the frame was validated in host memory.
     */
    public long validatedNanos()
    {
        return validatedNanos;
    }

    /**
     * @return when the consumer thread took the frame.
     */
    public long consumerStartNanos()
    {
        return consumerStartNanos;
    }
}
