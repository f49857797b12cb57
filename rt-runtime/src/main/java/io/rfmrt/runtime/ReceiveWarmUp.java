package io.rfmrt.runtime;

import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.runtime.internal.ConsumerAgent;
import io.rfmrt.runtime.internal.IsrWakeAgent;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The JIT warm-up of a receive path, before the real one starts: a path of the same shape on a private emulated
 * network, driven with synthetic frames until the JIT compilers are quiet, then removed with its network.
 * <p>
 * Called once, from the thread that assembles a node, before its RT threads start; it starts and stops unpinned
 * threads of its own and allocates freely.
 */
public final class ReceiveWarmUp
{
    /** Frames per channel that {@link #warmUp} sends by default: enough for the JIT's optimising compiler. */
    public static final int WARMUP_FRAMES_DEFAULT = NodeContext.WARMUP_FRAMES_DEFAULT;

    /** Longest warm-up, in seconds: frames past {@code frames} go on only while the JIT is still compiling. */
    private static final int WARMUP_LIMIT_S = 20;

    /** Frames between two samplings of the stage latencies during the warm-up (a power of two). */
    private static final int LATENCY_SAMPLE_FRAMES = 256;

    /** Frames per channel between two numbers a publisher skips, in auto DMA mode (a power of two). */
    public static final int SKIP_EVERY_FRAMES = 2048;

    /**
     * Frames per channel between two overruns (a power of two): one comes after the optimising compiler has compiled
     * the path, so a branch it still left to a trap traps in the warm-up, and is compiled again with it.
     */
    public static final int OVERRUN_EVERY_FRAMES = 4096;

    /** Frames beyond the DMA ring's size an overrun publishes at once: the card drops them (auto mode). */
    private static final int OVERRUN_SPILL_FRAMES = 64;

    /** Longest wait for the frames in flight before an overrun, in ms. */
    private static final int DRAIN_WAIT_MS = 1000;

    /** The default payload: 64 bytes of zeros. */
    private static final Payload ZEROS = (buffer, channel, frame) -> buffer.capacity();

    private ReceiveWarmUp()
    {
    }

    /**
     * Warm the receive path's own code up before the real one starts, so that a node does not report RUNNING with
     * its hot path still interpreted: on a private emulated network shaped like {@code device} (same node id, DMA
     * mode and ring), push at least {@code frames} frames per channel through a path of the same wait strategy with a
     * no-op handler, on unpinned threads, and go on until the JIT compilers have had nothing in progress or queued
     * for a while (at most {@link #WARMUP_LIMIT_S} s in all), then wait for them to be idle again and remove the
     * network. The application's handler is not run (it may have side
     * effects); the code it shares with the path (frame views, stage stamps, journal) is.
     *
     * @param device   the real card, whose shape is copied.
     * @param channels the input channels.
     * @param event    the event type.
     * @param wait     the wait strategy.
     * @param frames   frames per channel, e.g. {@link #WARMUP_FRAMES_DEFAULT}.
     * @return what the warm-up made the path do.
     */
    public static Result warmUp(final RfmDevice device, final List<ChannelSpec> channels, final EventType event,
        final WaitStrategy wait, final int frames)
    {
        return warmUp(device, channels, event, wait, frames, (frame, stamps) -> { });
    }

    /**
     * {@link #warmUp(RfmDevice, List, EventType, WaitStrategy, int)} with the application's own handler, for a
     * handler that may see synthetic frames (64-byte payloads of zeros): then its code is compiled too, and the call
     * site keeps its one receiver type (no recompilation when the real path starts).
     *
     * @param device   the real card, whose shape is copied.
     * @param channels the input channels.
     * @param event    the event type.
     * @param wait     the wait strategy.
     * @param frames   frames per channel.
     * @param handler  the handler to run on the synthetic frames.
     * @return what the warm-up made the path do.
     */
    public static Result warmUp(final RfmDevice device, final List<ChannelSpec> channels, final EventType event,
        final WaitStrategy wait, final int frames, final FrameHandler handler)
    {
        return warmUp(device, channels, event, wait, frames, handler, ZEROS);
    }

    /**
     * {@link #warmUp(RfmDevice, List, EventType, WaitStrategy, int, FrameHandler)} with the synthetic frames' payloads
     * written by {@code payload}, for a handler whose branches depend on what a frame carries (a number, a command):
     * the warm-up then profiles the branches the real frames take.
     * <p>
     * Besides the steady traffic (at most half the rings in flight), the warm-up makes the path take what a run only
     * does under overload or loss, so that the optimising compiler compiles those branches instead of leaving them to
     * an uncommon trap, which would throw the RT thread's code away mid-run: in auto DMA mode, a publisher skips a
     * number every {@link #SKIP_EVERY_FRAMES} frames (a gap); in interrupt modes, every {@link #OVERRUN_EVERY_FRAMES}
     * frames, with the path's threads stopped, more frames than the DMA ring holds are published at once and the path's
     * agents are driven on this thread until the ring is empty (a drain that ends on its bound, the backlog poll after
     * it, a full event FIFO, and in auto mode frames the card drops and the gap they leave). {@link Result} counts
     * them.
     *
     * @param device   the real card, whose shape is copied.
     * @param channels the input channels.
     * @param event    the event type.
     * @param wait     the wait strategy.
     * @param frames   frames per channel.
     * @param handler  the handler to run on the synthetic frames.
     * @param payload  writes each synthetic frame's payload.
     * @return what the warm-up made the path do.
     */
    public static Result warmUp(final RfmDevice device, final List<ChannelSpec> channels, final EventType event,
        final WaitStrategy wait, final int frames, final FrameHandler handler, final Payload payload)
    {
        final String network = "warmup-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        long size = 1 << 20;
        for (final ChannelSpec c : channels)
        {
            size = Math.max(size, Long.highestOneBit(c.offset() + c.length()) << 1);
        }
        final DmaEngine dma = device.dma();
        final boolean auto = !wait.mode().findsByNumber() && dma.mode() == DmaMode.AUTO;
        final List<RfmDevice> senders = new ArrayList<>();
        RfmDevice receiver = null;
        RtEnvironment env = null;
        Paths paths = null;
        Result result = null;
        ThreadNotStoppedException leftRunning = null;
        try
        {
            // the network is made by this first device of it, and is this warm-up's alone (its name is)
            receiver = RfmDevices.open("sim:" + network + "?node=" + device.nodeId() + "&size=" + size +
                "&dmaSlots=" + dma.slotCount() + "&dmaSlotSize=" + dma.slotSize() + "&dma=" +
                (auto ? "auto" : "on-demand"));
            env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")), warning -> { });
            final List<FramePublisher> publishers = new ArrayList<>();
            for (final ChannelSpec c : channels)
            {
                final RfmDevice sender = RfmDevices.open("sim:" + network + "?node=" + c.node());
                senders.add(sender);
                publishers.add(new FramePublisher(sender, c));
            }
            paths = new Paths(receiver, channels, event, wait, handler, env, auto);
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
            final int inFlight = Math.max(1, Math.min(dma.slotCount(), channels.get(0).slots()) / 2);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WARMUP_LIMIT_S);
            final JitWatch jit = new JitWatch();
            long frame = 0;
            // at least the frames asked for, then on until the traffic gives the JIT nothing more to compile: the
            // optimised code of the hot path is installed while its own frames still flow
            for (int i = 0; (i < frames || !jit.idle()) && System.nanoTime() < deadline && !paths.failed(); i++)
            {
                if (i == frames / 2 || i == frames * 3 / 4)
                {
                    // each publisher restarts (a new incarnation, its numbers from 1), as a node restarting in the
                    // run does: the branch that takes a new incarnation is then in the profile the JIT compiles,
                    // not a trap that throws the receive path's optimised code away at the run's first frame
                    for (int c = 0; c < publishers.size(); c++)
                    {
                        publishers.set(c, new FramePublisher(senders.get(c), channels.get(c)));
                    }
                }
                if ((i & (OVERRUN_EVERY_FRAMES - 1)) == OVERRUN_EVERY_FRAMES / 2 && wait.mode().interrupts())
                {
                    frame = paths.overrun(publishers, buffer, payload, frame, deadline);
                }
                if ((i & (LATENCY_SAMPLE_FRAMES - 1)) == 0)
                {
                    // as the heartbeat does in the run: the stage recorders change phase, so both phases are profiled
                    paths.path.latencies().sample();
                }
                for (int c = 0; c < publishers.size(); c++)
                {
                    final FramePublisher publisher = publishers.get(c);
                    if (auto && (i & (SKIP_EVERY_FRAMES - 1)) == SKIP_EVERY_FRAMES - 1)
                    {
                        // a number never sent: the receiver counts a gap (found by number, it would wait for it)
                        publisher.resumeAfter(publisher.lastSeq() + 1);
                        paths.sent++;
                    }
                    while (paths.inFlight() >= inFlight && System.nanoTime() < deadline)
                    {
                        Thread.onSpinWait();
                    }
                    final int length = payload.write(buffer, c, frame++);
                    publisher.publish(buffer, 0, Math.min(length, channels.get(c).maxPayload()), 0);
                    paths.sent++;
                }
            }
            paths.awaitDrained(deadline);
        }
        finally
        {
            if (paths != null)
            {
                try
                {
                    paths.retire();
                }
                catch (final ThreadNotStoppedException ex)
                {
                    leftRunning = ex;
                }
                long overflows = 0;
                for (final EventType type : EventType.values())
                {
                    overflows += receiver.counter(RfmCounter.FIFO_OVERFLOWS, type);
                }
                result = new Result(paths.handled, paths.gaps, paths.boundedDrains,
                    receiver.counter(RfmCounter.DMA_DROPPED, null), overflows, paths.dmaMissing);
            }
            JitWatch.awaitIdle(TimeUnit.SECONDS.toNanos(10));
            if (leftRunning == null)
            {
                // nothing of the warm-up runs any more: its network can go
                for (final RfmDevice sender : senders)
                {
                    sender.close();
                }
                if (env != null)
                {
                    env.close();
                }
                if (receiver != null)
                {
                    receiver.close();
                    RfmDevices.destroyNetwork(network);
                }
            }
        }
        if (leftRunning != null)
        {
            // a thread of the warm-up still runs on its private network: that stays mapped (and in place) until the
            // process ends
            throw new IllegalStateException("warm-up on network '" + network + "': " + leftRunning.getMessage(),
                leftRunning);
        }
        return result;
    }

    /**
     * Writes the payload of one synthetic frame of a warm-up, on the warm-up's calling thread.
     */
    @FunctionalInterface
    public interface Payload
    {
        /**
         * @param buffer  64 bytes to write the payload into (its previous frame's bytes are still there).
         * @param channel the frame's channel, its index in the input channels.
         * @param frame   the frame's number in the warm-up, from 0, over all channels.
         * @return the payload's length, at most 64 (cut to the channel's largest payload).
         */
        int write(UnsafeBuffer buffer, int channel, long frame);
    }

    /**
     * What a warm-up made its receive paths do, summed over them: the rare branches it put in the profile.
     *
     * @param framesHandled frames the handler was given.
     * @param gaps          numbers found missing (skipped by a publisher, dropped by the card).
     * @param boundedDrains drains that ended on their bound (a DMA ring's worth of frames in one wake).
     * @param dmaDropped    frames the card did not move, its DMA ring full.
     * @param fifoOverflows events the card's FIFO had no room for.
     * @param dmaMissing    frames found by number whose on-demand transfer found the DMA ring out of descriptors
     *                      (looked at again once the consumer gave some back).
     */
    public record Result(long framesHandled, long gaps, long boundedDrains, long dmaDropped, long fifoOverflows,
        long dmaMissing)
    {
    }

    /**
     * The warm-up's receive path of the moment, and the counts of those it has retired: a path whose agents are
     * driven on the warm-up's thread cannot have threads of its own, so an overrun retires the running path and
     * starts a new one. The warm-up's thread only.
     */
    private static final class Paths
    {
        private final RfmDevice receiver;
        private final List<ChannelSpec> channels;
        private final EventType event;
        private final WaitStrategy wait;
        private final FrameHandler handler;
        private final RtEnvironment env;
        private final boolean auto;
        private ReceivePath path;
        /** Numbers used on {@link #path}'s channels since it started, sent or skipped. */
        private long sent;
        private long handled;
        private long gaps;
        private long boundedDrains;
        private long dmaMissing;

        Paths(final RfmDevice receiver, final List<ChannelSpec> channels, final EventType event,
            final WaitStrategy wait, final FrameHandler handler, final RtEnvironment env, final boolean auto)
        {
            this.auto = auto;
            this.receiver = receiver;
            this.channels = channels;
            this.event = event;
            this.wait = wait;
            this.handler = handler;
            this.env = env;
            this.path = newPath();
            path.start(env, -1, 0, -1, 0);
        }

        private ReceivePath newPath()
        {
            return new ReceivePath(receiver, channels, event, wait, handler, null, null, SystemNanoClock.INSTANCE);
        }

        boolean failed()
        {
            return path.errors().failed();
        }

        long inFlight()
        {
            return sent - path.counter(RuntimeCounter.FRAMES_HANDLED) - path.counter(FrameCounter.GAPS);
        }

        void awaitDrained(final long deadline)
        {
            // bounded: a frame refused as torn is neither handled nor a gap
            final long until = Math.min(deadline, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_WAIT_MS));
            while (inFlight() > 0 && System.nanoTime() - until < 0 && !failed())
            {
                Thread.onSpinWait();
            }
        }

        /**
         * Stop the running path and add up its counts.
         */
        void retire()
        {
            try
            {
                path.close();
            }
            finally
            {
                handled += path.counter(RuntimeCounter.FRAMES_HANDLED);
                gaps += path.counter(FrameCounter.GAPS);
                boundedDrains += path.counter(RuntimeCounter.DRAIN_BOUND);
                dmaMissing += path.counter(FrameCounter.DMA_MISSING);
                sent = 0;
            }
        }

        /**
         * With the threads stopped, publish more frames than the DMA ring holds, then drive a new path's agents on
         * this thread until every frame is taken, and start that path's threads.
         *
         * @return the warm-up's next frame number.
         */
        long overrun(final List<FramePublisher> publishers, final UnsafeBuffer buffer, final Payload payload,
            final long firstFrame, final long deadline)
        {
            awaitDrained(deadline);
            retire();
            path = newPath();
            final IsrWakeAgent isr = path.isrAgent();
            final ConsumerAgent consumer = path.consumerAgent();
            long frame = firstFrame;
            frame = burst(publishers, buffer, payload, frame, isr.drainLimit());
            // the ISR side alone: handing off, its descriptors stay out until the consumer runs
            isr.doWork(RfmDevice.NO_WAIT);
            if (!auto)
            {
                // frames found by number: the rings again, the DMA ring's descriptors run out under the drain
                frame = burst(publishers, buffer, payload, frame, isr.drainLimit());
                isr.doWork(RfmDevice.NO_WAIT);
            }
            drive(isr, consumer, deadline);
            // one more frame per channel: the numbers the card dropped show as a gap
            for (int c = 0; c < publishers.size(); c++)
            {
                final int length = payload.write(buffer, c, frame++);
                publishers.get(c).publish(buffer, 0, Math.min(length, channels.get(c).maxPayload()), 0);
            }
            drive(isr, consumer, deadline);
            // what the driven agents took is counted by this path: the threads go on from here
            sent = path.counter(RuntimeCounter.FRAMES_HANDLED) + path.counter(FrameCounter.GAPS);
            path.start(env, -1, 0, -1, 0);
            return frame;
        }

        /**
         * Publish {@code frames} at once, spread over the channels: in auto mode that many and
         * {@link #OVERRUN_SPILL_FRAMES} more, which the card drops; found by number, at most each channel's ring less
         * one (a lapped reader would only see the newest).
         */
        private long burst(final List<FramePublisher> publishers, final UnsafeBuffer buffer, final Payload payload,
            final long firstFrame, final int frames)
        {
            long frame = firstFrame;
            final int share = (frames + OVERRUN_SPILL_FRAMES + publishers.size() - 1) / publishers.size();
            for (int c = 0; c < publishers.size(); c++)
            {
                final int count = auto ? share : Math.min(share, channels.get(c).slots() - 1);
                for (int n = 0; n < count; n++)
                {
                    final int length = payload.write(buffer, c, frame++);
                    publishers.get(c).publish(buffer, 0, Math.min(length, channels.get(c).maxPayload()), 0);
                }
            }
            return frame;
        }

        private static void drive(final IsrWakeAgent isr, final ConsumerAgent consumer, final long deadline)
        {
            int work;
            do
            {
                work = isr.doWork(RfmDevice.NO_WAIT);
                while (consumer.doWork() > 0)
                {
                    work++;
                }
            }
            while (work > 0 && System.nanoTime() < deadline);
        }
    }
}
