package io.rfmrt.rfm.internal.bridge;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.ControlledFragmentAssembler;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.AeronException;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import io.rfmrt.rfm.bridge.BridgeContext;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentInvoker;

import static io.rfmrt.rfm.internal.bridge.BridgeMessages.STREAM_ID;

/**
 * The bridge's transport over Aeron: an embedded media driver (run by the bridge's duty cycle in SHARED mode through
 * its agent invoker, or on its own threads), a client whose conductor the duty cycle invokes, one subscription on the
 * bridge's channel and an exclusive publication per peer.
 */
public final class AeronBridgeTransport implements BridgeTransport
{
    /**
     * Largest receiver window and socket buffer asked for (the kernel caps the buffers at net.core.rmem_max and
     * wmem_max; Aeron warns when it does).
     */
    static final int MAX_WINDOW = 2 * 1024 * 1024;

    private final Receiver receiver;
    private final MediaDriver driver;
    private final AgentInvoker driverInvoker;
    private final Aeron aeron;
    private final AgentInvoker clientInvoker;
    private final Subscription subscription;
    private final ControlledFragmentAssembler assembler;
    private boolean closed;

    /**
     * Start the media driver and the client, subscribe to the bridge's channel.
     *
     * @param ctx          concluded settings (channel, Aeron directory, threading mode, term length, time-outs).
     * @param receiver     called with what arrives.
     * @param errorHandler told of Aeron's errors.
     */
    public AeronBridgeTransport(final BridgeContext ctx, final Receiver receiver, final ErrorHandler errorHandler)
    {
        this.receiver = receiver;
        MediaDriver launched = null;
        Aeron client = null;
        try
        {
            final MediaDriver.Context driverCtx = new MediaDriver.Context()
                .aeronDirectoryName(ctx.aeronDir().toString())
                .threadingMode(ctx.threadingMode())
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .warnIfDirectoryExists(false)
                .asyncExecutorEnabled(false)
                .publicationTermBufferLength(ctx.termLength())
                // a receiving bridge that pauses (its thread sleeps between polls, a safepoint stops it) must find
                // what was sent meanwhile in its socket and its window, not make the sending bridge wait or the
                // kernel drop datagrams: Aeron's 128 KiB defaults hold 8 ms of a 40 kHz stream of frames
                .initialWindowLength(receiveWindow(ctx.termLength()))
                .socketRcvbufLength(receiveWindow(ctx.termLength()))
                .socketSndbufLength(receiveWindow(ctx.termLength()))
                .imageLivenessTimeoutNs(ctx.peerTimeoutNs())
                .publicationConnectionTimeoutNs(ctx.peerTimeoutNs())
                .timerIntervalNs(Math.min(1_000_000_000L, ctx.peerTimeoutNs() / 4))
                // endpoints are resolved once, at start: no periodic re-resolution (it allocates once a second)
                .reResolutionCheckIntervalNs(0);
            if (ctx.threadingMode() == ThreadingMode.SHARED)
            {
                driverCtx.sharedIdleStrategy(ctx.driverIdle().get());
            }
            else if (ctx.threadingMode() == ThreadingMode.SHARED_NETWORK)
            {
                driverCtx.sharedNetworkIdleStrategy(ctx.driverIdle().get())
                    .conductorIdleStrategy(ctx.driverIdle().get());
            }
            else if (ctx.threadingMode() == ThreadingMode.DEDICATED)
            {
                driverCtx.senderIdleStrategy(ctx.driverIdle().get())
                    .receiverIdleStrategy(ctx.driverIdle().get())
                    .conductorIdleStrategy(ctx.driverIdle().get());
            }
            if (ctx.driverCustomiser() != null)
            {
                ctx.driverCustomiser().accept(driverCtx);
            }
            launched = MediaDriver.launch(driverCtx);
            final AgentInvoker invoker = launched.sharedAgentInvoker();
            client = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(ctx.aeronDir().toString())
                .useConductorAgentInvoker(true)
                .driverAgentInvoker(invoker)
                .errorHandler(errorHandler)
                .subscriberErrorHandler(errorHandler));
            driver = launched;
            driverInvoker = invoker;
            aeron = client;
            clientInvoker = client.conductorAgentInvoker();
            assembler = new ControlledFragmentAssembler(this::onFragment);
            // a conductor callback: no client calls there, the receiver only marks the session
            subscription = client.addSubscription(ctx.channel(), STREAM_ID, image -> { },
                image ->
                {
                    assembler.freeSessionBuffer(image.sessionId());
                    receiver.onSessionGone(image.sessionId());
                });
        }
        catch (final RuntimeException ex)
        {
            if (client != null)
            {
                client.close();
            }
            if (launched != null)
            {
                launched.close();
            }
            throw ex;
        }
    }

    /**
     * @param termLength the publications' term length.
     * @return the receiver window and socket buffer length: half a term, at most {@link #MAX_WINDOW}.
     */
    static int receiveWindow(final int termLength)
    {
        return Math.min(termLength / 2, MAX_WINDOW);
    }

    private ControlledFragmentHandler.Action onFragment(final DirectBuffer buffer, final int offset, final int length,
        final Header header)
    {
        if (receiver.pollEnded())
        {
            // a message before this one was cut short: BREAK ends only that image's poll, and the subscription goes
            // on to the others; this one stays in its image (ABORT: not taken) until the kept rest is applied
            return ControlledFragmentHandler.Action.ABORT;
        }
        // BREAK, not ABORT: the message was taken (what the receiver did not apply yet it keeps), only the poll ends
        return receiver.onMessage(buffer, offset, length, header.sessionId()) ?
            ControlledFragmentHandler.Action.CONTINUE : ControlledFragmentHandler.Action.BREAK;
    }

    @Override
    public int doWork()
    {
        int work = 0;
        if (driverInvoker != null)
        {
            work += driverInvoker.invoke();
        }
        return work + clientInvoker.invoke();
    }

    @Override
    public int poll(final int limit)
    {
        return subscription.controlledPoll(assembler, limit);
    }

    @Override
    public Stream open(final String channel)
    {
        try
        {
            return new AeronStream(aeron.addExclusivePublication(channel, STREAM_ID));
        }
        catch (final AeronException ex)
        {
            return null;
        }
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            if (driverInvoker != null)
            {
                // let the driver send what was offered last (the peers' goodbyes)
                driverInvoker.invoke();
            }
            subscription.close();
            aeron.close();
        }
        finally
        {
            driver.close();
        }
    }

    private static final class AeronStream implements Stream
    {
        private final ExclusivePublication publication;

        AeronStream(final ExclusivePublication publication)
        {
            this.publication = publication;
        }

        @Override
        public long offer(final DirectBuffer buffer, final int offset, final int length)
        {
            return publication.offer(buffer, offset, length);
        }

        @Override
        public boolean isConnected()
        {
            return publication.isConnected();
        }

        @Override
        public void close()
        {
            publication.close();
        }
    }
}
