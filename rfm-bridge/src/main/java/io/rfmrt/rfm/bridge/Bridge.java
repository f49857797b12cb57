package io.rfmrt.rfm.bridge;

import io.aeron.driver.ThreadingMode;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.internal.bridge.BridgeAgent;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

/**
 * The bridge of one host: joins this host's emulated network to the same network on other hosts over Aeron UDP, so
 * that the nodes of all of them share one reflective memory (docs/protocol.md, "Bridged networks").
 * <p>
 * The node processes of the host append every store they make and every event for another host's node to the
 * host's outbound log (the {@code bridge} file beside the network); the bridge sends the log, in order, on one
 * reliable Aeron stream to each peer, and applies what its peers send to this host's image and cards. It holds a
 * card for each node of another host, so that node ids stay unique across hosts. When a peer is lost the host's
 * link goes down (SYNC_LOSS on its cards, sends refused); when the peer is back, each side sends the other the words
 * it owns and the link comes up again.
 * <p>
 * A duty cycle ({@link Agent}): run it on one thread with an {@code AgentRunner} or an {@code AgentInvoker}. With
 * the media driver in {@link ThreadingMode#INVOKER} mode (the default) that thread runs the driver too and the
 * bridge starts no thread of its own.
 */
public final class Bridge implements Agent, AutoCloseable
{
    private final BridgeAgent agent;

    private Bridge(final BridgeAgent agent)
    {
        this.agent = agent;
    }

    /**
     * Map the network (create it when missing) and its bridge file, claim the host's bridge, start the media driver
     * and the client, subscribe and publish to the peers. Nothing is sent until the first duty cycle.
     *
     * @param ctx the settings; concluded here.
     * @return the bridge; close it (or let its runner close it) to stop.
     * @throws RfmException when the network cannot be bridged (another bridge runs, a node joined before the
     *                      network was bridged, another host id made the bridge file).
     */
    public static Bridge launch(final BridgeContext ctx)
    {
        ctx.conclude();
        return new Bridge(new BridgeAgent(ctx));
    }

    @Override
    public void onStart()
    {
        agent.onStart();
    }

    @Override
    public int doWork()
    {
        return agent.doWork();
    }

    @Override
    public void onClose()
    {
        agent.onClose();
    }

    @Override
    public String roleName()
    {
        return "rfmrt-bridge";
    }

    /**
     * An idle strategy for the thread that runs this bridge: spin, yield, then sleep in the kernel until a node of
     * the host appends to the outbound log (it rings the bridge file's doorbell) or {@code maxParkNs} passes.
     *
     * @param maxParkNs longest sleep: how late, at most, traffic from the peers and the timers are seen.
     * @return a new idle strategy for one thread.
     */
    public IdleStrategy doorbellIdleStrategy(final long maxParkNs)
    {
        return agent.doorbellIdleStrategy(maxParkNs);
    }

    /**
     * @return whether every peer is in sync both ways: the host's link is up.
     */
    public boolean linkUp()
    {
        return agent.linkUp();
    }

    /**
     * Stop when not run by a runner (a runner calls {@link #onClose()} itself). Idempotent.
     */
    @Override
    public void close()
    {
        agent.onClose();
    }
}
