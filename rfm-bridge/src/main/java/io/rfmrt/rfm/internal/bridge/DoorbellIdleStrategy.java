package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.internal.Futex;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * How a bridge's thread waits for work: two yields, then sleeps in the kernel (from 16 us, doubling up
 * to the maximum park time, as Agrona's backoff parks) on the bridge file's doorbell until a node appends an event to the outbound log (its {@link OutboundLog} rings the doorbell) or the
 * maximum park time passes (the network, the timers and writes without an event are seen at least that often). The
 * local side costs nothing while idle and wakes as an interrupt does; what arrives from the network waits for the
 * next poll.
 * <p>
 * A committed record at the log's head keeps the bridge awake, unless the bridge says its outbound side is blocked (a
 * message waits for a back-pressured peer): then nothing in the log can go until the peer's receiver takes what it
 * was sent, which no doorbell announces, and the bridge sleeps as when idle. Spinning there at a real-time priority
 * would only take the cpu from the receiving side (on a small machine, the peer's own bridge).
 * <p>
 * One thread; allocation-free.
 */
public final class DoorbellIdleStrategy implements IdleStrategy
{
    private static final int SPINS = 0;
    private static final int YIELDS = 2;
    /**
     * First sleep: every duty cycle of the bridge polls the media driver's sockets (tens of microseconds of system
     * calls in INVOKER mode), so the idle loop sleeps from the start rather than spin through many of them.
     */
    static final long MIN_PARK_NS = 16_000;
    private static final int TIMESPEC_SIZE = 16;
    private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

    private final BridgeFile file;
    private final ManyToOneRingBuffer log;
    private final org.agrona.concurrent.AtomicBuffer logBuffer;
    private final int logMask;
    private final long minParkNs;
    private final long maxParkNs;
    private final BooleanSupplier outboundBlocked;
    private final UnsafeBuffer timespec = new UnsafeBuffer(BufferUtil.allocateDirectAligned(TIMESPEC_SIZE, 64));
    private int idles;
    private long parkNs;

    /**
     * @param file      the bridge file.
     * @param maxParkNs longest sleep, the bound on how late network traffic and timers are seen.
     */
    public DoorbellIdleStrategy(final BridgeFile file, final long maxParkNs)
    {
        this(file, Math.min(MIN_PARK_NS, maxParkNs), maxParkNs);
    }

    /**
     * @param file      the bridge file.
     * @param minParkNs first sleep after work.
     * @param maxParkNs longest sleep, the bound on how late network traffic and timers are seen.
     */
    public DoorbellIdleStrategy(final BridgeFile file, final long minParkNs, final long maxParkNs)
    {
        this(file, minParkNs, maxParkNs, () -> false);
    }

    /**
     * @param file            the bridge file.
     * @param minParkNs       first sleep after work.
     * @param maxParkNs       longest sleep, the bound on how late network traffic and timers are seen.
     * @param outboundBlocked whether the bridge's outbound side waits for a peer (then records in the log do not keep
     *                        it awake); called on the bridge's thread, must not allocate.
     */
    public DoorbellIdleStrategy(final BridgeFile file, final long minParkNs, final long maxParkNs,
        final BooleanSupplier outboundBlocked)
    {
        this.outboundBlocked = outboundBlocked;
        this.minParkNs = minParkNs;
        this.parkNs = minParkNs;
        this.file = file;
        this.log = file.newLog();
        this.logBuffer = log.buffer();
        this.logMask = log.capacity() - 1;
        this.maxParkNs = maxParkNs;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
            return;
        }
        idle();
    }

    @Override
    public void idle()
    {
        if (idles < SPINS)
        {
            idles++;
            Thread.onSpinWait();
            return;
        }
        if (idles < SPINS + YIELDS)
        {
            idles++;
            Thread.yield();
            return;
        }
        // announce, then look: a writer that appended before it read the sleepers is seen here. Only a committed
        // record keeps the bridge awake: one claimed and not yet committed belongs to a writer that must run first
        // (perhaps on this cpu, at a lower priority), so the bridge sleeps then too
        file.doorbellWaiter(1);
        final int value = file.doorbell();
        java.lang.invoke.VarHandle.fullFence();
        final long head = log.consumerPosition();
        if (head == log.producerPosition() || outboundBlocked.getAsBoolean() ||
            logBuffer.getIntVolatile(RecordDescriptor.lengthOffset((int)head & logMask)) <= 0)
        {
            // sleeps that grow from 1 us to the maximum, as Agrona's backoff parks: the network is polled often
            // right after traffic, rarely when quiet
            timespec.putLong(0, parkNs / NANOS_PER_SECOND);
            timespec.putLong(8, parkNs % NANOS_PER_SECOND);
            Futex.await(file.doorbellAddress(), value, timespec.addressOffset());
            parkNs = Math.min(parkNs << 1, maxParkNs);
        }
        file.doorbellWaiter(-1);
    }

    @Override
    public void reset()
    {
        idles = 0;
        parkNs = minParkNs;
    }

    @Override
    public String alias()
    {
        return "doorbell";
    }

    /**
     * @return the longest sleep, ns.
     */
    public long maxParkNs()
    {
        return maxParkNs;
    }
}
