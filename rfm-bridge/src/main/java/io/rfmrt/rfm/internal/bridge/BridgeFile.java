package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeRecordKind;
import io.rfmrt.rfm.bridge.BridgeState;
import io.rfmrt.rfm.internal.Futex;
import io.rfmrt.rfm.internal.ProcStat;
import io.rfmrt.rfm.internal.SharedFiles;
import io.rfmrt.rfm.sim.HostBridge;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.*;

/**
 * A host's bridge file mapped into this process (layout in {@link BridgeFileDescriptor}): the bridge's claim and
 * lease, its state, counters, records and doorbell, and the tables over the same mapping: the peers and the remote
 * nodes it holds cards for ({@link #peers()}), the owner table and the overflow bitmap the node processes mark when
 * the outbound log is full ({@link #owners()}), and the outbound log they append to ({@link #newLog()}).
 * Allocation-free accessors; any process may read, writers are named per method.
 */
public final class BridgeFile implements AutoCloseable
{
    private final Path file;
    private final MappedByteBuffer map;
    private final UnsafeBuffer buffer;
    private final long memorySize;
    private final OwnerTable owners;
    private final PeerTable peers;
    private final int logOffset;
    private final int logCapacity;

    private BridgeFile(final Path file, final MappedByteBuffer map)
    {
        this.file = file;
        this.map = map;
        this.buffer = new UnsafeBuffer(map);
        this.memorySize = buffer.getLong(MEMORY_SIZE_OFFSET);
        this.owners = new OwnerTable(buffer, memorySize);
        this.peers = new PeerTable(buffer);
        this.logOffset = BridgeFileDescriptor.logOffset(memorySize);
        this.logCapacity = buffer.getInt(LOG_CAPACITY_OFFSET);
    }

    /**
     * @param networkDir a network folder.
     * @return the bridge file's path in it.
     */
    public static Path file(final Path networkDir)
    {
        return networkDir.resolve(FILE_NAME);
    }

    /**
     * @param bridge a network image's bridge ({@code NetworkImage.bridge()}, {@code SimNetwork.bridge()}), or null.
     * @return its bridge file, or null when the network is not bridged.
     */
    public static BridgeFile of(final HostBridge bridge)
    {
        return bridge == null ? null : OutboundLog.of(bridge).bridgeFile();
    }

    /**
     * @param networkDir a network folder.
     * @return whether the network has a bridge file (it is bridged to other hosts).
     */
    public static boolean exists(final Path networkDir)
    {
        return HostBridge.present(networkDir);
    }

    /**
     * @param capacity a log capacity from a user.
     * @return null when usable, else why not.
     */
    public static String logCapacityProblem(final long capacity)
    {
        if (capacity < MIN_LOG_CAPACITY || capacity > MAX_LOG_CAPACITY || !BitUtil.isPowerOfTwo(capacity))
        {
            return "log size " + capacity + " is not a power of two between 64K and 256M";
        }
        return null;
    }

    /**
     * Attach to a network's bridge file, checking magic, version and the memory size.
     *
     * @param networkDir  the network folder.
     * @param network     its name, for messages.
     * @param memorySize  bytes of memory of the network.
     * @return the file, or null when the network is not bridged.
     * @throws RfmException BAD_LAYOUT naming the file when it is foreign, corrupt or of another size.
     */
    public static BridgeFile attachIfPresent(final Path networkDir, final String network, final long memorySize)
    {
        final Path path = file(networkDir);
        if (!exists(networkDir))
        {
            return null;
        }
        final MappedByteBuffer map = SharedFiles.map(path, "bridge file of network '" + network + "'");
        try
        {
            final UnsafeBuffer header = new UnsafeBuffer(map);
            if (header.capacity() < HEADER_SIZE || header.getLongAcquire(MAGIC_OFFSET) != MAGIC)
            {
                throw new RfmException(RfmStatus.BAD_LAYOUT, "network '" + network + "': " + path +
                    " is not a bridge file (bad magic): remove it with rfmrt rfm destroy");
            }
            if (header.getInt(VERSION_OFFSET) != LAYOUT_VERSION)
            {
                throw new RfmException(RfmStatus.BAD_LAYOUT, "network '" + network + "': " + path +
                    " has layout version " + header.getInt(VERSION_OFFSET) + "; this build reads version " +
                    LAYOUT_VERSION + " only: destroy the network and create it again");
            }
            final long size = header.getLong(MEMORY_SIZE_OFFSET);
            final int capacity = header.getInt(LOG_CAPACITY_OFFSET);
            if (size != memorySize || logCapacityProblem(capacity) != null ||
                header.capacity() != fileSize(size, capacity))
            {
                throw new RfmException(RfmStatus.BAD_LAYOUT, "network '" + network + "': " + path +
                    " serves a memory of " + size + " bytes with a log of " + capacity + " bytes in " +
                    header.capacity() + " bytes; the network has " + memorySize + ": destroy the network and " +
                    "create it again");
            }
            return new BridgeFile(path, map);
        }
        catch (final RuntimeException ex)
        {
            SharedFiles.unmap(map);
            throw ex;
        }
    }

    /**
     * Create a network's bridge file unless it exists (under the network's creation lock), then attach to it. A new
     * file marks every non-zero word of the image as this host's in the owner table: what was written before the
     * network was bridged is this host's to send.
     *
     * @param networkDir  the network folder.
     * @param network     its name, for messages.
     * @param memory      the network's memory image.
     * @param hostId      this host's id, 1..255.
     * @param logCapacity outbound log bytes for a new file.
     * @return the file.
     * @throws RfmException when an existing file belongs to another host id.
     */
    public static BridgeFile createOrAttach(final Path networkDir, final String network, final UnsafeBuffer memory,
        final int hostId, final int logCapacity)
    {
        final long memorySize = memory.capacity();
        if (!exists(networkDir))
        {
            final Path lockFile = networkDir.resolve(".create.lock");
            try (FileChannel lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
                FileLock ignored = lockChannel.lock())
            {
                Files.setPosixFilePermissions(lockFile, SharedFiles.FILE_PERMISSIONS);
                if (!exists(networkDir))
                {
                    build(networkDir, memory, hostId, logCapacity);
                }
            }
            catch (final IOException ex)
            {
                throw new RfmException(RfmStatus.OS_ERROR, "cannot create the bridge file of network '" + network +
                    "': " + SharedFiles.describe(ex), ex);
            }
        }
        final BridgeFile bridgeFile = attachIfPresent(networkDir, network, memorySize);
        if (bridgeFile == null)
        {
            throw new RfmException(RfmStatus.NOT_FOUND, "the bridge file of network '" + network + "' vanished");
        }
        if (bridgeFile.hostId() != hostId)
        {
            final int owner = bridgeFile.hostId();
            bridgeFile.close();
            throw new RfmException(RfmStatus.BAD_PARAMETER, "network '" + network + "' is bridged as host id " +
                owner + ", not " + hostId + " (its owner table names words by host id): give --host-id " + owner +
                ", or destroy the network and create it again");
        }
        return bridgeFile;
    }

    private static void build(final Path networkDir, final UnsafeBuffer memory, final int hostId,
        final int logCapacity) throws IOException
    {
        final long memorySize = memory.capacity();
        final Path target = file(networkDir);
        final Path tmp = SharedFiles.createTemporary(target, fileSize(memorySize, logCapacity));
        final MappedByteBuffer map = SharedFiles.map(tmp, "bridge file");
        try
        {
            final UnsafeBuffer b = new UnsafeBuffer(map);
            b.putInt(HOST_ID_OFFSET, hostId);
            b.putLong(MEMORY_SIZE_OFFSET, memorySize);
            b.putInt(LOG_CAPACITY_OFFSET, logCapacity);
            b.putInt(WORD_SIZE_OFFSET, WORD_SIZE);
            b.putLong(CREATED_OFFSET, System.currentTimeMillis());
            b.putInt(STATE_OFFSET, BridgeState.STOPPED.id());
            b.putInt(STARTED_EMPTY_OFFSET, 1);
            final int owners = ownerTableOffset(memorySize);
            final int words = (int)(memorySize / WORD_SIZE);
            for (int word = 0; word < words; word++)
            {
                if (memory.getLong(word * WORD_SIZE) != 0)
                {
                    b.putByte(owners + word, (byte)hostId);
                }
            }
            b.putIntRelease(VERSION_OFFSET, LAYOUT_VERSION);
            b.putLongRelease(MAGIC_OFFSET, MAGIC);
        }
        finally
        {
            SharedFiles.unmap(map);
        }
        SharedFiles.publish(tmp, target);
    }

    /**
     * @param peerHostId a peer's host id.
     * @return whether this host's former words are still to be asked of that peer: the file was made new (the host's
     *         image started empty, or the network was bridged for the first time) and the peer has not answered a
     *         request for them yet.
     */
    public boolean formerWordsWanted(final int peerHostId)
    {
        return buffer.getIntVolatile(STARTED_EMPTY_OFFSET) != 0 &&
            (buffer.getLongVolatile(FORMER_ANSWERED_OFFSET + (peerHostId >>> 6) * Long.BYTES) &
            1L << (peerHostId & 63)) == 0;
    }

    /**
     * Bridge only: the peer answered a request for this host's former words to its end.
     *
     * @param peerHostId the peer's host id.
     */
    public void formerWordsAnswered(final int peerHostId)
    {
        final int at = FORMER_ANSWERED_OFFSET + (peerHostId >>> 6) * Long.BYTES;
        buffer.putLongVolatile(at, buffer.getLongVolatile(at) | 1L << (peerHostId & 63));
    }

    /**
     * @return the file's path.
     */
    public Path path()
    {
        return file;
    }

    /**
     * @return the whole mapping, for flyweights.
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return the host id the file was made for.
     */
    public int hostId()
    {
        return buffer.getInt(HOST_ID_OFFSET);
    }

    /**
     * @return bytes of memory the file serves.
     */
    public long memorySize()
    {
        return memorySize;
    }

    /**
     * @return the outbound log's capacity.
     */
    public int logCapacity()
    {
        return logCapacity;
    }

    /**
     * @return the owner table and the overflow bitmap, over this mapping.
     */
    public OwnerTable owners()
    {
        return owners;
    }

    /**
     * @return the peer and remote node tables, over this mapping.
     */
    public PeerTable peers()
    {
        return peers;
    }

    /**
     * @return a ring buffer over the outbound log (each process makes its own, over the same memory).
     */
    public ManyToOneRingBuffer newLog()
    {
        return new ManyToOneRingBuffer(new UnsafeBuffer(buffer, logOffset,
            logCapacity + RingBufferDescriptor.TRAILER_LENGTH));
    }

    // ------------------------------------------------------------------------------------------ claim and lease

    /**
     * @return pid of the running (or last) bridge, 0 when none claimed the file.
     */
    public long bridgePid()
    {
        return buffer.getLongVolatile(BRIDGE_PID_OFFSET);
    }

    /**
     * @return whether a live process holds the bridge claim.
     */
    public boolean bridgeAlive()
    {
        final long pid = bridgePid();
        return pid != 0 && ProcStat.isAlive(pid, buffer.getLongVolatile(BRIDGE_START_OFFSET));
    }

    /**
     * Claim the file for this process's bridge; a claim left by a dead bridge is taken over.
     *
     * @param incarnation this bridge's incarnation, non-zero.
     * @return 0 when claimed, else the pid of the live bridge that holds it.
     */
    public long claimBridge(final long incarnation)
    {
        final long self = ProcStat.selfPid();
        while (true)
        {
            final long owner = bridgePid();
            if (owner != 0 && (owner == self || bridgeAlive()))
            {
                return owner;
            }
            if (buffer.compareAndSetLong(BRIDGE_PID_OFFSET, owner, self))
            {
                buffer.putLongVolatile(BRIDGE_START_OFFSET, ProcStat.startTime(self));
                buffer.putLongVolatile(BRIDGE_INCARNATION_OFFSET, incarnation);
                buffer.putLongVolatile(BRIDGE_STARTED_MS_OFFSET, System.currentTimeMillis());
                return 0;
            }
        }
    }

    /**
     * Give the claim back (the bridge's clean stop): lease ended, state STOPPED, pid 0.
     */
    public void releaseBridge()
    {
        buffer.putLongVolatile(LEASE_OFFSET, 0);
        state(BridgeState.STOPPED);
        buffer.compareAndSetLong(BRIDGE_PID_OFFSET, ProcStat.selfPid(), 0);
    }

    /**
     * @return the running bridge's incarnation.
     */
    public long bridgeIncarnation()
    {
        return buffer.getLongVolatile(BRIDGE_INCARNATION_OFFSET);
    }

    /**
     * Bridge only: number a new publication, higher than any before it (also across restarts).
     *
     * @return its stream epoch.
     */
    public long nextStreamEpoch()
    {
        return buffer.getAndAddLong(STREAM_EPOCH_OFFSET, 1) + 1;
    }

    /**
     * @return when the running (or last) bridge started, epoch ms.
     */
    public long bridgeStartedMillis()
    {
        return buffer.getLongVolatile(BRIDGE_STARTED_MS_OFFSET);
    }

    /**
     * Bridge only: extend the lease.
     *
     * @param untilNanos {@code System.nanoTime()} until which the bridge answers for the link.
     */
    public void lease(final long untilNanos)
    {
        buffer.putLongRelease(LEASE_OFFSET, untilNanos);
    }

    /**
     * @param nowNanos {@code System.nanoTime()} now.
     * @return whether a bridge renewed its lease recently enough: a bridge that died lets it run out.
     */
    public boolean leaseValid(final long nowNanos)
    {
        final long lease = buffer.getLongAcquire(LEASE_OFFSET);
        return lease != 0 && lease - nowNanos > 0;
    }

    /**
     * @return the lease deadline, 0 when no bridge holds one.
     */
    public long lease()
    {
        return buffer.getLongAcquire(LEASE_OFFSET);
    }

    /**
     * @return the bridge's state.
     */
    public BridgeState state()
    {
        final BridgeState state = BridgeState.fromId(buffer.getIntVolatile(STATE_OFFSET));
        return state == null ? BridgeState.STOPPED : state;
    }

    /**
     * Bridge only.
     *
     * @param state its new state.
     */
    public void state(final BridgeState state)
    {
        buffer.putIntVolatile(STATE_OFFSET, state.id());
    }

    /**
     * @return configured peers.
     */
    public int configuredPeers()
    {
        return buffer.getIntVolatile(PEER_COUNT_OFFSET);
    }

    /**
     * Bridge only: what it serves.
     *
     * @param hostName this host's name.
     * @param channel  the channel it listens on.
     * @param peers    configured peers.
     */
    public void describe(final String hostName, final String channel, final int peers)
    {
        putText(buffer, HOST_NAME_OFFSET, NAME_LENGTH, hostName);
        putText(buffer, CHANNEL_OFFSET, CHANNEL_LENGTH, channel);
        buffer.putIntVolatile(PEER_COUNT_OFFSET, peers);
    }

    /**
     * @return this host's name as the bridge wrote it.
     */
    public String hostName()
    {
        return text(buffer, HOST_NAME_OFFSET, NAME_LENGTH);
    }

    /**
     * @return the channel the bridge listens on.
     */
    public String channel()
    {
        return text(buffer, CHANNEL_OFFSET, CHANNEL_LENGTH);
    }

    // ------------------------------------------------------------------------------------------ counters

    /**
     * @param counter a counter.
     * @param delta   added atomically.
     */
    public void add(final BridgeCounter counter, final long delta)
    {
        buffer.getAndAddLong(counterOffset(counter), delta);
    }

    /**
     * @param counter a counter.
     * @return its value.
     */
    public long counter(final BridgeCounter counter)
    {
        return buffer.getLongVolatile(counterOffset(counter));
    }

    // ------------------------------------------------------------------------------------------ records

    /**
     * Bridge only: append a record to the ring.
     *
     * @param kind   what happened.
     * @param peer   the peer's host id, 0 for none.
     * @param value  see the kind.
     * @param value2 see the kind.
     * @param millis when, epoch ms.
     */
    public void record(final BridgeRecordKind kind, final int peer, final long value, final long value2,
        final long millis)
    {
        final long index = buffer.getLongVolatile(RECORD_NEXT_OFFSET);
        final int at = recordOffset(index);
        buffer.putLongVolatile(at + RECORD_SEQUENCE_OFFSET, 0);
        buffer.putLong(at + RECORD_MILLIS_OFFSET, millis);
        buffer.putInt(at + RECORD_KIND_OFFSET, kind.id());
        buffer.putInt(at + RECORD_PEER_OFFSET, peer);
        buffer.putLong(at + RECORD_VALUE_OFFSET, value);
        buffer.putLong(at + RECORD_VALUE2_OFFSET, value2);
        buffer.putLongRelease(at + RECORD_SEQUENCE_OFFSET, index + 1);
        buffer.putLongRelease(RECORD_NEXT_OFFSET, index + 1);
    }

    /**
     * @return records written so far (the ring keeps the last {@link BridgeFileDescriptor#RECORD_COUNT}).
     */
    public long recordCount()
    {
        return buffer.getLongAcquire(RECORD_NEXT_OFFSET);
    }

    /**
     * @param index a record index below {@link #recordCount()} and within the ring.
     * @param into  {millis, kind id, peer, value, value2}; left alone when the record is being rewritten.
     * @return whether the record was read whole.
     */
    public boolean readRecord(final long index, final long[] into)
    {
        final int at = recordOffset(index);
        if (buffer.getLongAcquire(at + RECORD_SEQUENCE_OFFSET) != index + 1)
        {
            return false;
        }
        final long millis = buffer.getLong(at + RECORD_MILLIS_OFFSET);
        final int kind = buffer.getInt(at + RECORD_KIND_OFFSET);
        final int peer = buffer.getInt(at + RECORD_PEER_OFFSET);
        final long value = buffer.getLong(at + RECORD_VALUE_OFFSET);
        final long value2 = buffer.getLong(at + RECORD_VALUE2_OFFSET);
        VarHandle.loadLoadFence();
        if (buffer.getLongVolatile(at + RECORD_SEQUENCE_OFFSET) != index + 1)
        {
            return false;
        }
        into[0] = millis;
        into[1] = kind;
        into[2] = peer;
        into[3] = value;
        into[4] = value2;
        return true;
    }

    // ------------------------------------------------------------------------------------------ doorbell

    /**
     * Writers, after appending: wake the bridge if it sleeps. The full fence orders the append before the read of
     * the sleepers, against the bridge's announce-then-check (so a wake-up is never lost); nothing else is paid
     * while the bridge is awake.
     */
    public void ringDoorbell()
    {
        VarHandle.fullFence();
        if (buffer.getIntVolatile(DOORBELL_WAITERS_OFFSET) > 0)
        {
            buffer.getAndAddInt(DOORBELL_OFFSET, 1);
            Futex.wake(buffer.addressOffset() + DOORBELL_OFFSET, Integer.MAX_VALUE);
        }
    }

    /**
     * Bridge only: announce a sleeper (+1) before checking the log, or leave (-1).
     *
     * @param delta +1 or -1.
     */
    public void doorbellWaiter(final int delta)
    {
        buffer.getAndAddInt(DOORBELL_WAITERS_OFFSET, delta);
    }

    /**
     * @return bridge threads sleeping on the doorbell now.
     */
    public int doorbellSleepers()
    {
        return buffer.getIntVolatile(DOORBELL_WAITERS_OFFSET);
    }

    /**
     * @return the doorbell's value, to sleep on.
     */
    public int doorbell()
    {
        return buffer.getIntVolatile(DOORBELL_OFFSET);
    }

    /**
     * @return the doorbell's address in this process, for the futex.
     */
    public long doorbellAddress()
    {
        return buffer.addressOffset() + DOORBELL_OFFSET;
    }

    /**
     * Unmap.
     */
    @Override
    public void close()
    {
        SharedFiles.unmap(map);
    }
}
