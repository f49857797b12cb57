package io.rfmrt.rfm.internal.bridge;

import io.aeron.ChannelUri;
import io.aeron.Publication;
import io.rfmrt.rfm.bridge.BridgeContext;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The simulated network under the simulated bridges: what Aeron gives a bridge (an ordered, reliable stream per
 * session, an image per session at the receiver, flow control, connection and image time-outs) over links that the
 * simulation breaks, one direction or both, and hosts that it stops, kills and restarts.
 * <p>
 * The model, stepped by {@link #step()} after every host has run once:
 * <pre>
 *   a stream A -&gt; B moves when A runs, the direction A -&gt; B is up and B runs:
 *     B has no live image of it      -&gt; a new image after a setup delay (up to 100 ms); if B had one before,
 *                                       what was in flight then is lost (a new image starts at the stream's
 *                                       position when it forms)
 *     messages whose delay passed    -&gt; B's inbox, in order
 *   B runs and heard nothing of a live image for a time-out -&gt; the image ends: "session gone" in B's inbox
 *   B runs with a live image of it and B -&gt; A is up: a status message, the stream is connected for a time-out
 *     more (whether or not data moves A -&gt; B: a stream can stay connected a time-out after its image ended)
 *   offer: NOT_CONNECTED without a status within a time-out, BACK_PRESSURED when the bytes B has not taken
 *          exceed the window, else queued with a delay (never before an earlier message of the stream)
 *   a closed stream delivers what it holds, then its image ends; a killed host's streams stop where they are
 * </pre>
 * One thread; deterministic for a seed.
 */
final class SimLinks
{
    static final int WINDOW_BYTES = 256 * 1024;
    static final long SETUP_INTERVAL_NS = 100_000_000L;

    final long peerTimeoutNs;
    final int hostCount;
    final SplittableRandom random;
    final boolean[][] up;
    final long[][] latencyNs;
    final SimTransport[] current;
    final boolean[] paused;
    final List<SimStream> streams = new ArrayList<>();
    long nowNs;
    private int nextSession = 1000;

    SimLinks(final int hostCount, final long peerTimeoutNs, final long startNs, final SplittableRandom random)
    {
        this.hostCount = hostCount;
        this.peerTimeoutNs = peerTimeoutNs;
        this.random = random;
        this.nowNs = startNs;
        up = new boolean[hostCount + 1][hostCount + 1];
        latencyNs = new long[hostCount + 1][hostCount + 1];
        current = new SimTransport[hostCount + 1];
        paused = new boolean[hostCount + 1];
        for (int a = 1; a <= hostCount; a++)
        {
            for (int b = 1; b <= hostCount; b++)
            {
                up[a][b] = true;
                latencyNs[a][b] = 20_000L + random.nextLong(2_000_000L);
            }
        }
    }

    /**
     * @return a factory of transports for host {@code hostId}: each one made replaces the host's last.
     */
    BridgeTransport.Factory factory(final int hostId)
    {
        return (ctx, receiver, errorHandler) ->
        {
            final SimTransport transport = new SimTransport(hostId, ctx, receiver, errorHandler);
            if (current[hostId] != null)
            {
                current[hostId].dead = true;
            }
            current[hostId] = transport;
            return transport;
        };
    }

    /**
     * The host's process ended without a goodbye: its streams stop where they are, its inbox is gone.
     */
    void kill(final int hostId)
    {
        if (current[hostId] != null)
        {
            current[hostId].dead = true;
            current[hostId] = null;
        }
    }

    boolean running(final int hostId)
    {
        return current[hostId] != null && !paused[hostId];
    }

    boolean inFlight()
    {
        for (final SimStream s : streams)
        {
            if (!s.queue.isEmpty() && !s.owner.dead)
            {
                return true;
            }
        }
        for (int h = 1; h <= hostCount; h++)
        {
            if (current[h] != null && !current[h].inbox.isEmpty())
            {
                return true;
            }
        }
        return false;
    }

    void step()
    {
        for (final Iterator<SimStream> it = streams.iterator(); it.hasNext(); )
        {
            final SimStream s = it.next();
            final int a = s.owner.hostId;
            final int b = s.to;
            final SimTransport receiver = current[b];
            final boolean receiverRuns = receiver != null && !paused[b];
            if (s.owner.dead)
            {
                if (s.image == null || s.image.dead || s.image != receiver)
                {
                    it.remove();
                    continue;
                }
            }
            else if (!paused[a] && up[a][b] && receiverRuns)
            {
                if (s.image != receiver || !s.imageLive)
                {
                    // the sender's setup frames come every so often: the image forms a little after the link returns
                    if (s.setupAtNs == 0)
                    {
                        s.setupAtNs = nowNs + latencyNs[a][b] + random.nextLong(SETUP_INTERVAL_NS);
                        continue;
                    }
                    if (nowNs - s.setupAtNs < 0)
                    {
                        continue;
                    }
                    s.setupAtNs = 0;
                    if (s.everImaged)
                    {
                        s.queue.clear();
                    }
                    s.image = receiver;
                    s.imageLive = true;
                    s.everImaged = true;
                    s.imageGeneration++;
                    s.outstanding = 0;
                }
                s.imageHeardNs = nowNs;
                while (!s.queue.isEmpty() && s.queue.peekFirst().atNs - nowNs <= 0)
                {
                    final SimMessage m = s.queue.pollFirst();
                    m.generation = s.imageGeneration;
                    receiver.inbox.addLast(m);
                }
                if (s.closed && s.queue.isEmpty())
                {
                    receiver.inbox.addLast(SimMessage.gone(s));
                    s.imageLive = false;
                    it.remove();
                    continue;
                }
            }
            else
            {
                s.setupAtNs = 0;
            }
            if (receiverRuns && s.image == receiver && s.imageLive)
            {
                if (nowNs - s.imageHeardNs > peerTimeoutNs)
                {
                    s.imageLive = false;
                    receiver.inbox.addLast(SimMessage.gone(s));
                }
                else if (up[b][a] && !s.owner.dead && !paused[a])
                {
                    // the receiver acknowledges what its image holds whether or not data moves the other way
                    s.statusNs = nowNs;
                    s.everStatus = true;
                }
            }
        }
    }

    /**
     * One message in flight or in an inbox (or an image's end, with no bytes).
     */
    static final class SimMessage
    {
        final SimStream stream;
        final byte[] bytes;
        final long atNs;
        long generation;

        SimMessage(final SimStream stream, final byte[] bytes, final long atNs)
        {
            this.stream = stream;
            this.bytes = bytes;
            this.atNs = atNs;
        }

        static SimMessage gone(final SimStream stream)
        {
            return new SimMessage(stream, null, 0);
        }
    }

    /**
     * A stream out of one host to another.
     */
    final class SimStream implements BridgeTransport.Stream
    {
        final SimTransport owner;
        final int to;
        final int session;
        final ArrayDeque<SimMessage> queue = new ArrayDeque<>();
        SimTransport image;
        boolean imageLive;
        boolean everImaged;
        long imageGeneration;
        long imageHeardNs;
        long setupAtNs;
        long statusNs;
        boolean everStatus;
        long outstanding;
        long position;
        long lastAtNs;
        boolean closed;

        SimStream(final SimTransport owner, final int to, final int session)
        {
            this.owner = owner;
            this.to = to;
            this.session = session;
        }

        @Override
        public long offer(final DirectBuffer buffer, final int offset, final int length)
        {
            if (closed || owner.dead)
            {
                return Publication.CLOSED;
            }
            if (!isConnected())
            {
                return Publication.NOT_CONNECTED;
            }
            if (outstanding + length > WINDOW_BYTES)
            {
                return Publication.BACK_PRESSURED;
            }
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            final long jitter = random.nextInt(8) == 0 ? random.nextLong(latencyNs[owner.hostId][to] * 4 + 1) : 0;
            final long at = Math.max(lastAtNs, nowNs + latencyNs[owner.hostId][to] + jitter);
            lastAtNs = at;
            queue.addLast(new SimMessage(this, bytes, at));
            outstanding += length;
            position += length;
            return position;
        }

        @Override
        public boolean isConnected()
        {
            return !closed && everStatus && nowNs - statusNs <= peerTimeoutNs;
        }

        @Override
        public void close()
        {
            closed = true;
        }
    }

    /**
     * One bridge process's transport.
     */
    final class SimTransport implements BridgeTransport
    {
        final int hostId;
        final Receiver receiver;
        final ArrayDeque<SimMessage> inbox = new ArrayDeque<>();
        final UnsafeBuffer delivered = new UnsafeBuffer(new byte[0]);
        boolean dead;

        SimTransport(final int hostId, final BridgeContext ctx, final Receiver receiver,
            final ErrorHandler errorHandler)
        {
            this.hostId = hostId;
            this.receiver = receiver;
        }

        @Override
        public int doWork()
        {
            int work = 0;
            while (!inbox.isEmpty() && inbox.peekFirst().bytes == null)
            {
                receiver.onSessionGone(inbox.pollFirst().stream.session);
                work++;
            }
            return work;
        }

        @Override
        public int poll(final int limit)
        {
            int n = 0;
            while (n < limit && !inbox.isEmpty() && inbox.peekFirst().bytes != null)
            {
                // as Aeron's controlled poll: a cut message ends only its own stream's poll, the subscription goes on
                // to the others, and the receiver leaves their messages untaken (ABORT) once its poll has ended
                if (receiver.pollEnded())
                {
                    break;
                }
                final SimMessage m = inbox.pollFirst();
                if (m.generation == m.stream.imageGeneration)
                {
                    m.stream.outstanding -= m.bytes.length;
                }
                delivered.wrap(m.bytes);
                n++;
                receiver.onMessage(delivered, 0, m.bytes.length, m.stream.session);
            }
            return n;
        }

        @Override
        public Stream open(final String channel)
        {
            final String endpoint = ChannelUri.parse(channel).get("endpoint");
            final int to = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf('.') + 1,
                endpoint.indexOf(':')));
            final SimStream stream = new SimStream(this, to, nextSession++);
            streams.add(stream);
            return stream;
        }

        @Override
        public void close()
        {
            dead = true;
        }
    }
}
