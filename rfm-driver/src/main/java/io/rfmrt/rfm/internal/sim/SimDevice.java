package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmConfig;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.RfmWindow;
import io.rfmrt.rfm.internal.Futex;
import io.rfmrt.rfm.sim.HostBridge;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_BRIDGED;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_DMA_AUTO;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_LED;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_LOOPBACK;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_TRANSMIT_OFF;

/**
 * One emulated card: a node id claimed on a {@link NetworkImage}, its event FIFOs and interrupt lines, and its DMA
 * ring. Waiting sleeps in {@code FUTEX_WAIT} on the type's line; sending puts the event in the receiver's FIFO after
 * the sender's earlier memory writes and wakes the receiver with {@code FUTEX_WAKE}.
 */
public final class SimDevice implements RfmDevice
{
    private static final int TIMESPEC_SIZE = 16;
    private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

    private final String uri;
    private final NetworkImage network;
    private final int node;
    private final CardFlyweight card;
    private final RfmWindow window;
    private final SimDmaEngine dma;
    private final AtomicIntegerArray waiting = new AtomicIntegerArray(EventType.ID_LIMIT);
    private final AtomicIntegerArray cancelled = new AtomicIntegerArray(EventType.ID_LIMIT);
    private final UnsafeBuffer timespecs;
    private final CardDelivery delivery;
    private final HostBridge outbound;
    private final EventInfo scratch = new EventInfo();
    private volatile boolean closed;

    /**
     * Claim a node on a network and build its DMA ring.
     *
     * @param uri       the URI, for the configuration snapshot.
     * @param network   the attached network; the device closes it.
     * @param node      node id 0..255.
     * @param mode      DMA mode.
     * @param policy    DMA ring-full policy.
     * @param slotCount DMA descriptors.
     * @param slotSize  DMA buffer size.
     * @param loopback  initial loopback flag.
     * @return the open device.
     * @throws RfmException NODE_IN_USE when a live process holds the node.
     */
    public static SimDevice open(final String uri, final NetworkImage network, final int node, final DmaMode mode,
        final DmaRingFullPolicy policy, final int slotCount, final int slotSize, final boolean loopback)
    {
        return open(uri, network, node, mode, policy, slotCount, slotSize, loopback,
            DmaRing.DEFAULT_BACKPRESSURE_TIMEOUT_NS);
    }

    /**
     * Claim a node, as {@link #open(String, NetworkImage, int, DmaMode, DmaRingFullPolicy, int, int, boolean)}, with
     * the longest wait of a DMA transfer for a free descriptor under {@link DmaRingFullPolicy#BACKPRESSURE}.
     *
     * @param uri       the URI it was opened with.
     * @param network   the network image.
     * @param node      node id.
     * @param mode      DMA mode.
     * @param policy    DMA ring-full policy.
     * @param slotCount DMA descriptors.
     * @param slotSize  DMA buffer size.
     * @param loopback  initial loopback flag.
     * @param dmaWaitNs how long a transfer waits for a free descriptor under backpressure, ns.
     * @return the open device.
     * @throws RfmException NODE_IN_USE when a live process holds the node.
     */
    public static SimDevice open(final String uri, final NetworkImage network, final int node, final DmaMode mode,
        final DmaRingFullPolicy policy, final int slotCount, final int slotSize, final boolean loopback,
        final long dmaWaitNs)
    {
        final RfmStatus claim = network.claim(node);
        if (claim != RfmStatus.SUCCESS)
        {
            final String holder = network.describeHolder(node);
            network.close();
            throw new RfmException(claim, "node " + node + " of network '" + network.name() + "' is held by " +
                holder);
        }
        final DmaRing ring;
        try
        {
            ring = DmaRing.create(network, node, mode, policy, slotCount, slotSize, dmaWaitNs);
        }
        catch (final RuntimeException ex)
        {
            network.release(node);
            network.close();
            throw ex;
        }
        network.card(node).flag(FLAG_DMA_AUTO, mode == DmaMode.AUTO);
        network.card(node).flag(FLAG_LOOPBACK, loopback);
        // the holder logs its writes and remote events for the host's bridge
        network.card(node).flag(FLAG_BRIDGED, network.bridge() != null);
        return new SimDevice(uri, network, node, ring);
    }

    private SimDevice(final String uri, final NetworkImage network, final int node, final DmaRing ring)
    {
        this.uri = uri;
        this.network = network;
        this.node = node;
        this.card = network.card(node);
        this.outbound = network.bridge();
        this.window = new RfmWindow(network.memory(), outbound == null ? null : outbound.observer(node));
        this.dma = new SimDmaEngine(network, ring, node);
        this.delivery = new CardDelivery(network, node, ring);
        this.timespecs = new UnsafeBuffer(BufferUtil.allocateDirectAligned(EventType.ID_LIMIT * TIMESPEC_SIZE, 64));
    }

    /**
     * @return the network this card is on.
     */
    public NetworkImage network()
    {
        return network;
    }

    /**
     * @return whether the DMA host buffers are locked in memory.
     */
    public boolean dmaBuffersLocked()
    {
        return dma.ring().locked();
    }

    @Override
    public int nodeId()
    {
        return node;
    }

    @Override
    public int boardId()
    {
        return RfmConfig.BOARD_ID_5565;
    }

    @Override
    public long memorySize()
    {
        return network.memorySize();
    }

    @Override
    public long firstOffset()
    {
        return 0;
    }

    @Override
    public RfmConfig config()
    {
        return new RfmConfig(uri, "sim", node, boardId(), memorySize(), 0, ControlBlockDescriptor.LAYOUT_VERSION,
            dma.mode(), dma.slotCount(), dma.slotSize(), loopback());
    }

    @Override
    public RfmWindow window()
    {
        return window;
    }

    @Override
    public void enableEvent(final EventType type)
    {
        card.enable(type, true);
    }

    @Override
    public void disableEvent(final EventType type)
    {
        card.enable(type, false);
    }

    @Override
    public boolean isEventEnabled(final EventType type)
    {
        return (card.enabledMask() & type.mask()) != 0;
    }

    @Override
    public RfmStatus sendEvent(final int toNode, final EventType type, final int data)
    {
        return sendEvent(toNode, type, data, -1, 0);
    }

    @Override
    public RfmStatus sendEvent(final int toNode, final EventType type, final int data, final long rfmOffset,
        final int length)
    {
        if (closed)
        {
            return RfmStatus.NOT_OPEN;
        }
        if (!type.sendable())
        {
            return RfmStatus.BAD_PARAMETER;
        }
        if (toNode != ALL_NODES && (toNode < 0 || toNode > MAX_NODE_ID))
        {
            return RfmStatus.OUT_OF_RANGE;
        }
        final boolean loopback = loopback();
        if (toNode == node && !loopback)
        {
            card.addCounter(RfmCounter.SENDS_REFUSED.id(), 1);
            return RfmStatus.NODE_ID_SELF;
        }
        if (!network.linkUp())
        {
            card.addCounter(RfmCounter.SENDS_REFUSED.id(), 1);
            return RfmStatus.LINK_TEST_FAIL;
        }
        if ((card.flags() & FLAG_TRANSMIT_OFF) != 0)
        {
            card.addCounter(RfmCounter.SENDS_REFUSED.id(), 1);
            return RfmStatus.TRANSMIT_DISABLED;
        }
        if (rfmOffset >= 0)
        {
            final String problem = DmaRing.sourceProblem(rfmOffset, length, network.memorySize());
            if (problem != null)
            {
                card.addCounter(RfmCounter.DMA_REJECTED.id(), 1);
                throw new RfmException(problem.contains("aligned") ? RfmStatus.UNALIGNED_OFFSET :
                    RfmStatus.OUT_OF_RANGE, problem);
            }
        }
        if (toNode == ALL_NODES)
        {
            // the other hosts' nodes first (the log refuses only when full), then this host's
            if (outbound != null && !outbound.appendEvent(node, ALL_NODES, type.id(), data, rfmOffset, length,
                System.nanoTime()))
            {
                card.addCounter(RfmCounter.SENDS_REFUSED.id(), 1);
                return RfmStatus.LINK_TEST_FAIL;
            }
            for (int n = network.nextPresent(0); n >= 0; n = network.nextPresent(n + 1))
            {
                if ((n != node || loopback) && !network.isRemote(n))
                {
                    delivery.deliver(node, n, type, data, rfmOffset, length);
                }
            }
        }
        else if (network.isPresent(toNode) && network.isRemote(toNode))
        {
            // a card another host's node holds: its bridge delivers it there, after the writes logged before it
            if (outbound == null)
            {
                card.addCounter(RfmCounter.SENDS_UNDELIVERED.id(), 1);
            }
            else if (!outbound.appendEvent(node, toNode, type.id(), data, rfmOffset, length, System.nanoTime()))
            {
                card.addCounter(RfmCounter.SENDS_REFUSED.id(), 1);
                return RfmStatus.LINK_TEST_FAIL;
            }
        }
        else if (network.isPresent(toNode))
        {
            delivery.deliver(node, toNode, type, data, rfmOffset, length);
        }
        else
        {
            card.addCounter(RfmCounter.SENDS_UNDELIVERED.id(), 1);
        }
        card.addCounter(RfmCounter.EVENTS_SENT.slot(type), 1);
        return RfmStatus.SUCCESS;
    }

    @Override
    public RfmStatus awaitEvent(final EventType type, final long timeoutNanos, final EventInfo into)
    {
        if (closed)
        {
            return RfmStatus.NOT_OPEN;
        }
        if (!isEventEnabled(type) && network.fifo(node, type).size() == 0)
        {
            // a self-disabling type that fired can still be taken; otherwise nothing will ever come
            return RfmStatus.EVENT_NOT_ENABLED;
        }
        final int t = type.id();
        if (!waiting.compareAndSet(t, 0, 1))
        {
            return RfmStatus.EVENT_IN_USE;
        }
        try
        {
            final long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
            final long lineAddress = network.interruptLine(node, type).address();
            final long timespecAddress = timespecs.addressOffset() + (long)t * TIMESPEC_SIZE;
            while (true)
            {
                if (network.fifo(node, type).poll(type, into))
                {
                    return RfmStatus.SUCCESS;
                }
                if (cancelled.get(t) != 0 || closed)
                {
                    cancelled.set(t, 0);
                    card.addCounter(RfmCounter.AWAIT_CANCELS.id(), 1);
                    return RfmStatus.WAIT_EVENT_CANCELED;
                }
                long timespec = 0;
                if (timeoutNanos == NO_WAIT)
                {
                    card.addCounter(RfmCounter.AWAIT_TIMEOUTS.id(), 1);
                    return RfmStatus.TIMED_OUT;
                }
                else if (timeoutNanos > 0)
                {
                    final long remaining = deadline - System.nanoTime();
                    if (remaining <= 0)
                    {
                        card.addCounter(RfmCounter.AWAIT_TIMEOUTS.id(), 1);
                        return RfmStatus.TIMED_OUT;
                    }
                    timespecs.putLong(t * TIMESPEC_SIZE, remaining / NANOS_PER_SECOND);
                    timespecs.putLong(t * TIMESPEC_SIZE + 8, remaining % NANOS_PER_SECOND);
                    timespec = timespecAddress;
                }
                network.interruptLine(node, type).addWaiter(1);
                final int line = network.interruptLine(node, type).value();
                if (network.fifo(node, type).poll(type, into))
                {
                    network.interruptLine(node, type).addWaiter(-1);
                    return RfmStatus.SUCCESS;
                }
                if (cancelled.get(t) == 0 && !closed)
                {
                    Futex.await(lineAddress, line, timespec);
                }
                network.interruptLine(node, type).addWaiter(-1);
            }
        }
        finally
        {
            waiting.set(t, 0);
        }
    }

    @Override
    public void cancelAwait(final EventType type)
    {
        if (waiting.get(type.id()) != 0)
        {
            final String truncation = network.controlTruncation();
            if (truncation != null)
            {
                // the waiter sleeps on a page that is gone: nothing can wake it (an atomic update there from
                // interpreted code would crash the JVM besides)
                throw new RfmException(RfmStatus.OS_ERROR, truncation + ": the " + type + " waiter of node " + node +
                    " cannot be woken");
            }
            cancelled.set(type.id(), 1);
            network.raise(node, type);
        }
    }

    @Override
    public int clearEvents(final EventType type)
    {
        int cleared = 0;
        for (final EventType t : EventType.values())
        {
            if (type == null || type == t)
            {
                while (network.fifo(node, t).poll(t, scratch))
                {
                    cleared++;
                }
            }
        }
        return cleared;
    }

    @Override
    public long counter(final RfmCounter counter, final EventType type)
    {
        return card.counter(counter.slot(counter.perType() ? type : null));
    }

    @Override
    public RfmStatus checkRingContinuity()
    {
        return network.linkUp() ? RfmStatus.SUCCESS : RfmStatus.LINK_TEST_FAIL;
    }

    @Override
    public void loopback(final boolean on)
    {
        card.flag(FLAG_LOOPBACK, on);
    }

    @Override
    public boolean loopback()
    {
        return (card.flags() & FLAG_LOOPBACK) != 0;
    }

    @Override
    public void transmit(final boolean on)
    {
        card.flag(FLAG_TRANSMIT_OFF, !on);
    }

    @Override
    public boolean transmit()
    {
        return (card.flags() & FLAG_TRANSMIT_OFF) == 0;
    }

    @Override
    public void led(final boolean on)
    {
        card.flag(FLAG_LED, on);
    }

    @Override
    public boolean led()
    {
        return (card.flags() & FLAG_LED) != 0;
    }

    @Override
    public DmaEngine dma()
    {
        return dma;
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final String truncation = network.controlTruncation();
        if (truncation != null)
        {
            // nothing more is written into the damaged files; a waiter of this process stays in the kernel until
            // the process ends
            network.close();
            throw new RfmException(RfmStatus.OS_ERROR, truncation + ": node " + node + " not released (destroy the " +
                "network and create it again)");
        }
        for (final EventType type : EventType.values())
        {
            cancelAwait(type);
        }
        // a waiter still inside the kernel must leave before the line's memory is unmapped
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (final EventType type : EventType.values())
        {
            while (waiting.get(type.id()) != 0 && System.nanoTime() < deadline)
            {
                network.raise(node, type);
                Thread.yield();
            }
        }
        delivery.close();
        network.release(node);
        dma.ring().close();
        try
        {
            Files.deleteIfExists(DmaRing.file(network, node));
        }
        catch (final IOException ignore)
        {
            // the next holder of the node replaces it
        }
        network.close();
    }
}
