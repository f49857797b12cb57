package io.rfmrt.runtime;

import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
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
     */
    public static void warmUp(final RfmDevice device, final List<ChannelSpec> channels, final EventType event,
        final WaitStrategy wait, final int frames)
    {
        warmUp(device, channels, event, wait, frames, (frame, stamps) -> { });
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
     */
    public static void warmUp(final RfmDevice device, final List<ChannelSpec> channels, final EventType event,
        final WaitStrategy wait, final int frames, final FrameHandler handler)
    {
        final String network = "warmup-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        long size = 1 << 20;
        for (final ChannelSpec c : channels)
        {
            size = Math.max(size, Long.highestOneBit(c.offset() + c.length()) << 1);
        }
        final DmaEngine dma = device.dma();
        final String mode = !wait.mode().findsByNumber() && dma.mode() == DmaMode.AUTO ? "auto" : "on-demand";
        final List<RfmDevice> senders = new ArrayList<>();
        RfmDevice receiver = null;
        RtEnvironment env = null;
        ReceivePath path = null;
        ThreadNotStoppedException leftRunning = null;
        try
        {
            // the network is made by this first device of it, and is this warm-up's alone (its name is)
            receiver = RfmDevices.open("sim:" + network + "?node=" + device.nodeId() + "&size=" + size +
                "&dmaSlots=" + dma.slotCount() + "&dmaSlotSize=" + dma.slotSize() + "&dma=" + mode);
            env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")), warning -> { });
            final List<FramePublisher> publishers = new ArrayList<>();
            for (final ChannelSpec c : channels)
            {
                final RfmDevice sender = RfmDevices.open("sim:" + network + "?node=" + c.node());
                senders.add(sender);
                publishers.add(new FramePublisher(sender, c));
            }
            path = new ReceivePath(receiver, channels, event, wait, handler, null, null, SystemNanoClock.INSTANCE);
            path.start(env, -1, 0, -1, 0);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
            final int inFlight = Math.max(1, Math.min(dma.slotCount(), channels.get(0).slots()) / 2);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WARMUP_LIMIT_S);
            final JitWatch jit = new JitWatch();
            long sent = 0;
            // at least the frames asked for, then on until the traffic gives the JIT nothing more to compile: the
            // optimised code of the hot path is installed while its own frames still flow
            for (int i = 0; (i < frames || !jit.idle()) && System.nanoTime() < deadline && !path.errors().failed();
                i++)
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
                if ((i & (LATENCY_SAMPLE_FRAMES - 1)) == 0)
                {
                    // as the heartbeat does in the run: the stage recorders change phase, so both phases are profiled
                    path.latencies().sample();
                }
                for (int c = 0; c < publishers.size(); c++)
                {
                    final FramePublisher publisher = publishers.get(c);
                    final int length = Math.min(payload.capacity(), channels.get(c).maxPayload());
                    while (sent - path.counter(RuntimeCounter.FRAMES_HANDLED) - path.counter(FrameCounter.GAPS) >=
                        inFlight && System.nanoTime() < deadline)
                    {
                        Thread.onSpinWait();
                    }
                    publisher.publish(payload, 0, length, 0);
                    sent++;
                }
            }
        }
        finally
        {
            if (path != null)
            {
                try
                {
                    path.close();
                }
                catch (final ThreadNotStoppedException ex)
                {
                    leftRunning = ex;
                }
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
    }
}
