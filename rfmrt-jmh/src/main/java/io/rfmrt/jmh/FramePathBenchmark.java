package io.rfmrt.jmh;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.rfm.channel.FrameView;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * A frame's way through the emulated card, on one thread (the emulator's card work runs on the publishing thread):
 * <pre>
 *  publish            FramePublisher.publish: header, payload, CRC32C, sequence (release), event to node 2
 *  publishAndReceive  publish, then node 2's per-frame step: take the event, take the completed descriptor,
 *                     validate the frame in place, release the descriptor
 *  drainValidate      node 2's drain alone (the ISR-wake thread's per-frame work in auto DMA mode): take the
 *                     completed descriptor, validate, release; a batch of frames published before each call
 * </pre>
 * {@code publish} sends to a node that does not take the event, so no ring fills: it is the publisher's own work.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FramePathBenchmark
{
    /** Frames published before each {@code drainValidate} call, all drained by it. */
    public static final int BATCH = BenchNetwork.DMA_SLOTS;

    /** A publisher to a node that does not take the event. */
    @State(Scope.Thread)
    public static class Publish
    {
        BenchNetwork network;
        FramePublisher publisher;
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[BenchNetwork.PAYLOAD_BYTES]);

        /** Opens the network. */
        @Setup(Level.Trial)
        public void open()
        {
            network = new BenchNetwork(false);
            publisher = new FramePublisher(network.sender(), BenchNetwork.CHANNEL);
        }

        /** Removes the network. */
        @TearDown(Level.Trial)
        public void close()
        {
            network.close();
        }
    }

    /** A publisher and a receiving node whose card moves each frame into its DMA ring. */
    @State(Scope.Thread)
    public static class Receive
    {
        BenchNetwork network;
        FramePublisher publisher;
        FrameReceiver frames;
        DmaEngine dma;
        RfmDevice receiver;
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[BenchNetwork.PAYLOAD_BYTES]);
        final EventInfo event = new EventInfo();
        final DmaCompletion done = new DmaCompletion();
        final FrameView view = new FrameView();

        /** Opens the network. */
        @Setup(Level.Trial)
        public void open()
        {
            network = new BenchNetwork(true);
            receiver = network.receiver();
            dma = receiver.dma();
            publisher = new FramePublisher(network.sender(), BenchNetwork.CHANNEL);
            frames = new FrameReceiver(receiver, BenchNetwork.CHANNEL);
        }

        /** Removes the network, after checking that every frame published was taken as valid. */
        @TearDown(Level.Trial)
        public void close()
        {
            final long published = publisher.lastSeq();
            final long valid = frames.counter(FrameCounter.FRAMES);
            network.close();
            if (valid != published)
            {
                throw new IllegalStateException(published + " frames published, " + valid + " taken as valid: the " +
                    "benchmark measured another path than the one it names");
            }
        }
    }

    /** As {@link Receive}, with a batch of frames waiting in the ring before each call. */
    @State(Scope.Thread)
    public static class Drain extends Receive
    {
        /** Publishes a batch: the card moves every frame into the ring; the events are taken here, not measured. */
        @Setup(Level.Invocation)
        public void publishBatch()
        {
            for (int i = 0; i < BATCH; i++)
            {
                payload.putLong(0, publisher.lastSeq());
                publisher.publish(payload, 0, BenchNetwork.PAYLOAD_BYTES, 0);
            }
            while (receiver.pollEvent(BenchNetwork.CHANNEL.event(), event) == RfmStatus.SUCCESS)
            {
                // doorbells only: the drain below takes every frame the ring holds
            }
        }
    }

    /**
     * @param s the publisher.
     * @return the event send's status.
     */
    @Benchmark
    public RfmStatus publish(final Publish s)
    {
        s.payload.putLong(0, s.publisher.lastSeq());
        return s.publisher.publish(s.payload, 0, BenchNetwork.PAYLOAD_BYTES, 0);
    }

    /**
     * @param s publisher and receiver.
     * @return the frame's verdict.
     */
    @Benchmark
    public FrameStatus publishAndReceive(final Receive s)
    {
        s.payload.putLong(0, s.publisher.lastSeq());
        s.publisher.publish(s.payload, 0, BenchNetwork.PAYLOAD_BYTES, 0);
        if (s.receiver.pollEvent(BenchNetwork.CHANNEL.event(), s.event) != RfmStatus.SUCCESS ||
            !s.dma.takeCompleted(s.done))
        {
            return FrameStatus.DMA_MISSING;
        }
        final FrameStatus status = s.frames.receiveCompleted(s.done, s.view);
        s.dma.release(s.done);
        return status;
    }

    /**
     * @param s a batch of frames in the ring.
     * @return the sum of the frames' first payload words, so that nothing is left out.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long drainValidate(final Drain s)
    {
        long sum = 0;
        while (s.dma.takeCompleted(s.done))
        {
            if (s.frames.receiveCompleted(s.done, s.view) == FrameStatus.OK)
            {
                sum += s.view.buffer().getLong(s.view.payloadOffset());
            }
            s.dma.release(s.done);
        }
        return sum;
    }
}
