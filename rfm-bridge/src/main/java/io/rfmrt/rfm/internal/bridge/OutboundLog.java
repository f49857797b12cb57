package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.RfmWindow;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.sim.HostBridge;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.*;

/**
 * The writing side of a host's outbound log: what a node process appends for its bridge. Every store through a node's
 * window becomes a WRITE record holding the bytes as stored (so each writer's order is the log's order for it), every
 * event for another host's node an EVENT record after them. A write that does not fit a full log marks its words in
 * the overflow bitmap instead (the bridge sends them again, in no particular order) and raises the overflow flag;
 * an event is refused while the log is full or the flag is up (it would reach the other hosts before its data).
 * <p>
 * A bridge that sleeps (its doorbell idle strategy) is woken by an event's append, as a card's interrupt wakes its
 * host, and takes the writes before it in the same message; writes alone wait for its next wake (at most its
 * maximum park time).
 * <p>
 * This is the emulator's {@link HostBridge} of a bridged network: every process that maps the network holds one, which
 * unmaps the bridge file when the network's image closes.
 * <p>
 * Thread safety: appending from any thread of any process on the host, allocation-free.
 */
public final class OutboundLog implements HostBridge
{
    private final BridgeFile bridgeFile;
    private final OwnerTable owners;
    private final ManyToOneRingBuffer log;
    private final UnsafeBuffer logBuffer;
    private final UnsafeBuffer memory;

    /**
     * @param bridgeFile the host's bridge file.
     * @param memory     the network's memory image (the bytes written are copied from it).
     */
    public OutboundLog(final BridgeFile bridgeFile, final UnsafeBuffer memory)
    {
        this.bridgeFile = bridgeFile;
        this.owners = bridgeFile.owners();
        this.log = bridgeFile.newLog();
        this.logBuffer = (UnsafeBuffer)log.buffer();
        this.memory = memory;
    }

    /**
     * @param bridge a network image's bridge ({@code NetworkImage.bridge()}, {@code SimNetwork.bridge()}), or null.
     * @return it as this host's outbound log, or null when the network is not bridged.
     */
    public static OutboundLog of(final HostBridge bridge)
    {
        return (OutboundLog)bridge;
    }

    /**
     * @return the bridge file.
     */
    public BridgeFile bridgeFile()
    {
        return bridgeFile;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public boolean leaseValid(final long nowNanos)
    {
        return bridgeFile.leaseValid(nowNanos);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public boolean bridgeAlive()
    {
        return bridgeFile.bridgeAlive();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public long bridgePid()
    {
        return bridgeFile.bridgePid();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String describeRemote(final int node, final long holderPid)
    {
        final PeerTable table = bridgeFile.peers();
        final int host = table.remoteHost(node);
        if (host == 0)
        {
            return null;
        }
        final int peer = table.peerIndex(host);
        final String hostName = peer < 0 ? "" : table.peerName(peer);
        final long ago = Math.max(0, System.currentTimeMillis() - table.remoteLastHeard(node));
        return "process " + table.remotePid(node) + " on host " +
            (hostName.isEmpty() ? "id " + host : "'" + hostName + "' (host id " + host + ")") +
            ", as this host's bridge (pid " + holderPid + ") last heard " + ago + " ms ago";
    }

    /**
     * Unmap the bridge file.
     */
    @Override
    public void close()
    {
        bridgeFile.close();
    }

    /**
     * @param node the writing node, recorded in each record.
     * @return an observer for that node's window.
     */
    @Override
    public RfmWindow.WriteObserver observer(final int node)
    {
        return (offset, length) -> appendWrite(node, offset, length);
    }

    /**
     * Append the bytes now in memory at {@code [offset, offset + length)} as WRITE records of at most
     * {@link BridgeFileDescriptor#WRITE_CHUNK} bytes each.
     *
     * @param node   writing node.
     * @param offset first byte.
     * @param length bytes.
     */
    public void appendWrite(final int node, final int offset, final int length)
    {
        int done = 0;
        while (done < length)
        {
            final int chunk = Math.min(WRITE_CHUNK, length - done);
            final int at = offset + done;
            final int index = log.tryClaim(LOG_WRITE, WRITE_DATA_OFFSET + chunk);
            if (index < 0)
            {
                // the words first, then the flag: the bridge clears the flag before it takes the words
                owners.markOverflow(at, length - done);
                owners.raiseOverflowFlag();
                bridgeFile.add(BridgeCounter.LOG_OVERFLOWS, 1);
                return;
            }
            logBuffer.putLong(index + WRITE_OFFSET_OFFSET, at);
            logBuffer.putInt(index + WRITE_SOURCE_OFFSET, node);
            logBuffer.putInt(index + WRITE_LENGTH_OFFSET, chunk);
            logBuffer.putBytes(index + WRITE_DATA_OFFSET, memory, at, chunk);
            if (!commit(index))
            {
                owners.markOverflow(at, length - done);
                owners.raiseOverflowFlag();
                return;
            }
            done += chunk;
        }
    }

    /**
     * Append an event for another host's node, or for every node.
     *
     * @param source    sending node.
     * @param target    node id, or 0xFFFF for all.
     * @param typeId    event type id.
     * @param data      data word.
     * @param dmaOffset the frame's offset for DMA on arrival, or -1.
     * @param dmaLength its length.
     * @param sendNanos the sender's {@code System.nanoTime()}.
     * @return false when the log is full (counted; the send must be refused).
     */
    @Override
    public boolean appendEvent(final int source, final int target, final int typeId, final int data,
        final long dmaOffset, final int dmaLength, final long sendNanos)
    {
        // after an overflow an event waits for its data: refused until the bridge sent the marked words
        final int index = owners.overflowFlag() ? -1 : log.tryClaim(LOG_EVENT, EVENT_LENGTH);
        if (index < 0)
        {
            bridgeFile.add(BridgeCounter.LOG_EVENT_REFUSALS, 1);
            return false;
        }
        logBuffer.putInt(index + EVENT_SOURCE_OFFSET, source);
        logBuffer.putInt(index + EVENT_TARGET_OFFSET, target);
        logBuffer.putInt(index + EVENT_TYPE_OFFSET, typeId);
        logBuffer.putInt(index + EVENT_DATA_OFFSET, data);
        logBuffer.putLong(index + EVENT_DMA_OFFSET_OFFSET, dmaOffset);
        logBuffer.putInt(index + EVENT_DMA_LENGTH_OFFSET, dmaLength);
        logBuffer.putInt(index + EVENT_DMA_LENGTH_OFFSET + 4, 0);
        logBuffer.putLong(index + EVENT_SEND_NANOS_OFFSET, sendNanos);
        if (!commit(index))
        {
            bridgeFile.add(BridgeCounter.LOG_EVENT_REFUSALS, 1);
            return false;
        }
        bridgeFile.ringDoorbell();
        return true;
    }

    /**
     * Commit a claimed record. The bridge skips a record left claimed for seconds (its writer looked dead); a writer
     * that was only stopped that long finds its claim gone here.
     *
     * @return false when the record was skipped meanwhile.
     */
    private boolean commit(final int index)
    {
        try
        {
            log.commit(index);
            return true;
        }
        catch (final IllegalStateException skipped)
        {
            return false;
        }
    }
}
