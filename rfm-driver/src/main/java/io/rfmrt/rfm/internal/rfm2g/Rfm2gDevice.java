package io.rfmrt.rfm.internal.rfm2g;

import com.sun.jna.Pointer;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmConfig;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.RfmWindow;
import io.rfmrt.rfm.internal.LibC;
import io.rfmrt.rfm.rfm2g.Rfm2gCard;
import io.rfmrt.rfm.rfm2g.Rfm2gEventStats;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.CONFIG_BOARD_ID;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.CONFIG_BOARD_REVISION;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.CONFIG_DRIVER_VERSION;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.CONFIG_DRIVER_VERSION_LENGTH;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.CONFIG_MEMORY_SIZE;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.CONFIG_NAME;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.CONFIG_NAME_LENGTH;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.CONFIG_NODE_ID;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.CONFIG_SIZE;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.DMA_MMAP_OFFSET;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.DMA_THRESHOLD_NEVER;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.EVENT_INFO_DRV_SPEC;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.EVENT_INFO_EVENT;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.EVENT_INFO_EXTENDED_INFO;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.EVENT_INFO_NODE_ID;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.EVENT_INFO_TIMEOUT;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.EVENT_IN_USE;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.EVENT_LAST;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.NOT_ENABLED;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.QINFO_EVENT;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.QINFO_EVENTS_QUEUED;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.QINFO_EVENT_COUNT;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.QINFO_EVENT_TIMEOUT;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.QINFO_MAX_QUEUE_SIZE;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.QINFO_OVERFLOWED;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.QINFO_QUEUE_PEAK;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.QINFO_QUEUE_SIZE;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.QINFO_SIZE;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.SUCCESS;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.status;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.statusName;
import static io.rfmrt.rfm.internal.rfm2g.Rfm2gCodes.vendorEvent;

/**
 * An RFM2g card through the vendor library. The window is the PIO mapping of the whole memory
 * ({@code RFM2gUserMemoryBytes}); waiting is {@code RFM2gWaitForEvent} with the time-out in milliseconds; DMA is
 * {@code RFM2gRead} into host buffers that lie in the boot-reserved DMA buffer when one is configured.
 * <p>
 * Hot-path calls ({@link #awaitEvent}, {@link #sendEvent}, the DMA engine's submit) are one direct-mapped native
 * call on pre-allocated native memory: no allocation, no lock. Each event type has its own
 * {@code RFM2GEVENTINFO}, so waiters on different types do not share memory. Everything else is serialised on
 * {@code this} and uses a shared scratch area.
 */
public final class Rfm2gDevice implements Rfm2gCard
{
    private static final int SCRATCH_SIZE = 256;
    private static final int INFO_STRIDE = 64;
    private static final int PAGE = 4096;

    private final String uri;
    private final String devicePath;
    private final long handle;
    private final UnsafeBuffer scratch;
    private final long scratchAddress;
    private final UnsafeBuffer infos;
    private final long infosAddress;
    private final UnsafeBuffer qinfos;
    private final long qinfosAddress;
    private final int node;
    private final int boardId;
    private final long memorySize;
    private final long firstOffset;
    private final int revision;
    private final String driverVersion;
    private final String productName;
    private final long windowAddress;
    private final RfmWindow window;
    private final long dmaAddress;
    private final int dmaBytes;
    private final Rfm2gDmaEngine dma;
    private final AtomicIntegerArray enabled = new AtomicIntegerArray(EventType.ID_LIMIT);
    private final AtomicIntegerArray waiting = new AtomicIntegerArray(EventType.ID_LIMIT);
    private final AtomicLongArray counters = new AtomicLongArray(RfmCounter.SLOT_COUNT);
    private volatile boolean closed;

    /**
     * Open the card, map its memory and set up the DMA ring.
     *
     * @param uri          the URI, for messages and the configuration.
     * @param devicePath   e.g. {@code /dev/rfm2g0}.
     * @param library      the vendor library's name or path.
     * @param dmaThreshold the DMA threshold to set, or -1 to keep the driver's.
     * @param dmaBase      physical address of the boot-reserved DMA buffer, or -1 for none.
     * @param slotCount    host DMA buffers, a power of two.
     * @param slotSize     bytes per host buffer, a multiple of 64.
     * @return the open card.
     * @throws RfmException naming the device, the vendor call and its status when anything fails.
     */
    public static Rfm2gDevice open(final String uri, final String devicePath, final String library,
        final long dmaThreshold, final long dmaBase, final int slotCount, final int slotSize)
    {
        Rfm2gLibrary.load(library);
        final UnsafeBuffer scratch = new UnsafeBuffer(BufferUtil.allocateDirectAligned(SCRATCH_SIZE, 64));
        scratch.putLong(0, 0);
        final int code = Rfm2gLibrary.RFM2gOpen(devicePath, scratch.addressOffset());
        if (code != SUCCESS)
        {
            final String hint = Files.exists(Path.of(devicePath)) ? "" : " (device node " + devicePath +
                " does not exist: is the rfm2g driver loaded?)";
            throw new RfmException(status(code), "device URI '" + uri + "': RFM2gOpen(" + devicePath + ") failed: " +
                describe(code) + hint);
        }
        final long handle = scratch.getLong(0);
        try
        {
            return new Rfm2gDevice(uri, devicePath, handle, scratch, dmaThreshold, dmaBase, slotCount, slotSize);
        }
        catch (final RuntimeException ex)
        {
            scratch.putLong(0, handle);
            Rfm2gLibrary.RFM2gClose(scratch.addressOffset());
            throw ex;
        }
    }

    private Rfm2gDevice(final String uri, final String devicePath, final long handle, final UnsafeBuffer scratch,
        final long dmaThreshold, final long dmaBase, final int slotCount, final int slotSize)
    {
        this.uri = uri;
        this.devicePath = devicePath;
        this.handle = handle;
        this.scratch = scratch;
        this.scratchAddress = scratch.addressOffset();
        this.infos = new UnsafeBuffer(BufferUtil.allocateDirectAligned(EventType.ID_LIMIT * INFO_STRIDE, 64));
        this.infosAddress = infos.addressOffset();
        this.qinfos = new UnsafeBuffer(BufferUtil.allocateDirectAligned(EventType.ID_LIMIT * INFO_STRIDE, 64));
        this.qinfosAddress = qinfos.addressOffset();

        final UnsafeBuffer config = new UnsafeBuffer(BufferUtil.allocateDirectAligned(CONFIG_SIZE + 12, 64));
        check("RFM2gGetConfig", Rfm2gLibrary.RFM2gGetConfig(handle, config.addressOffset()));
        this.node = config.getShort(CONFIG_NODE_ID) & 0xFFFF;
        this.boardId = config.getByte(CONFIG_BOARD_ID) & 0xFF;
        this.memorySize = config.getInt(CONFIG_MEMORY_SIZE) & 0xFFFFFFFFL;
        this.revision = config.getByte(CONFIG_BOARD_REVISION) & 0xFF;
        this.driverVersion = cString(config, CONFIG_DRIVER_VERSION, CONFIG_DRIVER_VERSION_LENGTH);
        this.productName = cString(config, CONFIG_NAME, CONFIG_NAME_LENGTH);
        if (memorySize <= 0 || memorySize > Integer.MAX_VALUE)
        {
            throw new RfmException(RfmStatus.OUT_OF_RANGE, "device URI '" + uri + "': the card reports " +
                memorySize + " bytes of memory, this build maps up to 2 GiB - 1");
        }
        check("RFM2gFirst", Rfm2gLibrary.RFM2gFirst(handle, scratchAddress));
        this.firstOffset = scratch.getInt(0) & 0xFFFFFFFFL;

        scratch.putLong(0, 0);
        check("RFM2gUserMemoryBytes", Rfm2gLibrary.RFM2gUserMemoryBytes(handle, scratchAddress, 0,
            (int)memorySize));
        this.windowAddress = scratch.getLong(0);
        this.window = new RfmWindow(new UnsafeBuffer(new Pointer(windowAddress).getByteBuffer(0, memorySize)));

        final long ringBytes = (long)slotCount * slotSize;
        final ByteBuffer hostBuffers;
        try
        {
            if (dmaThreshold >= 0)
            {
                check("RFM2gSetDMAThreshold", Rfm2gLibrary.RFM2gSetDMAThreshold(handle, (int)dmaThreshold));
            }
            if (dmaBase >= 0)
            {
                final int bytes = (int)((ringBytes + PAGE - 1) / PAGE * PAGE);
                scratch.putLong(0, 0);
                check("RFM2gUserMemoryBytes(RFM2G_DMA_MMAP_OFFSET)", Rfm2gLibrary.RFM2gUserMemoryBytes(handle,
                    scratchAddress, dmaBase | DMA_MMAP_OFFSET, bytes));
                this.dmaAddress = scratch.getLong(0);
                this.dmaBytes = bytes;
                hostBuffers = new Pointer(dmaAddress).getByteBuffer(0, ringBytes);
            }
            else
            {
                // no reserved buffer: ordinary locked host memory, which the driver copies into by PIO
                this.dmaAddress = 0;
                this.dmaBytes = 0;
                hostBuffers = BufferUtil.allocateDirectAligned((int)ringBytes, PAGE);
                if (LibC.loadFailure() == null)
                {
                    LibC.mlock(BufferUtil.address(hostBuffers), ringBytes);
                }
            }
        }
        catch (final RuntimeException ex)
        {
            scratch.putLong(0, windowAddress);
            Rfm2gLibrary.RFM2gUnMapUserMemoryBytes(handle, scratchAddress, (int)memorySize);
            throw ex;
        }
        final UnsafeBuffer touch = new UnsafeBuffer(hostBuffers);
        for (int i = 0; i < touch.capacity(); i += PAGE)
        {
            touch.putByte(i, (byte)0);
        }
        this.dma = new Rfm2gDmaEngine(handle, hostBuffers, BufferUtil.address(hostBuffers), slotCount, slotSize,
            memorySize, node, counters);
    }

    private static String cString(final UnsafeBuffer buffer, final int offset, final int length)
    {
        int end = 0;
        while (end < length && buffer.getByte(offset + end) != 0)
        {
            end++;
        }
        final byte[] bytes = new byte[end];
        buffer.getBytes(offset, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static String describe(final int code)
    {
        String message;
        try
        {
            message = Rfm2gLibrary.RFM2gErrorMsg(code);
        }
        catch (final RuntimeException | UnsatisfiedLinkError ex)
        {
            message = null;
        }
        return statusName(code) + (message == null || message.isBlank() ? "" : " (" + message.trim() + ")");
    }

    private void check(final String call, final int code)
    {
        if (code != SUCCESS)
        {
            throw new RfmException(status(code), "rfm2g " + devicePath + ": " + call + " failed: " + describe(code));
        }
    }

    // --------------------------------------------------------------------------------------------- identity

    @Override
    public int nodeId()
    {
        return node;
    }

    @Override
    public int boardId()
    {
        return boardId;
    }

    @Override
    public long memorySize()
    {
        return memorySize;
    }

    @Override
    public long firstOffset()
    {
        return firstOffset;
    }

    @Override
    public RfmConfig config()
    {
        return new RfmConfig(uri, "rfm2g", node, boardId, memorySize, firstOffset, revision, DmaMode.ON_DEMAND,
            dma.slotCount(), dma.slotSize(), loopback());
    }

    @Override
    public RfmWindow window()
    {
        return window;
    }

    /**
     * @return the vendor handle, for tests that call the library directly.
     */
    long handle()
    {
        return handle;
    }

    @Override
    public String devicePath()
    {
        return devicePath;
    }

    @Override
    public String driverVersion()
    {
        return driverVersion;
    }

    @Override
    public String productName()
    {
        return productName;
    }

    @Override
    public synchronized long dmaThreshold()
    {
        ensureOpen();
        check("RFM2gGetDMAThreshold", Rfm2gLibrary.RFM2gGetDMAThreshold(handle, scratchAddress));
        return scratch.getInt(0) & 0xFFFFFFFFL;
    }

    @Override
    public synchronized void dmaThreshold(final long bytes)
    {
        ensureOpen();
        if (bytes < 0 || bytes > DMA_THRESHOLD_NEVER)
        {
            throw new RfmException(RfmStatus.OUT_OF_RANGE, "DMA threshold " + bytes + " is outside 0..0xFFFFFFFF");
        }
        check("RFM2gSetDMAThreshold", Rfm2gLibrary.RFM2gSetDMAThreshold(handle, (int)bytes));
    }

    @Override
    public boolean dmaBufferReserved()
    {
        return dmaAddress != 0;
    }

    // ------------------------------------------------------------------------------------------------ events

    @Override
    public void enableEvent(final EventType type)
    {
        ensureOpen();
        final int code = Rfm2gLibrary.RFM2gEnableEvent(handle, vendorEvent(type));
        // the driver answers EVENT_IN_USE when the type is enabled already
        if (code != SUCCESS && code != EVENT_IN_USE)
        {
            check("RFM2gEnableEvent(" + type + ")", code);
        }
        enabled.set(type.id(), 1);
    }

    @Override
    public void disableEvent(final EventType type)
    {
        ensureOpen();
        final int code = Rfm2gLibrary.RFM2gDisableEvent(handle, vendorEvent(type));
        if (code != SUCCESS && code != NOT_ENABLED)
        {
            check("RFM2gDisableEvent(" + type + ")", code);
        }
        enabled.set(type.id(), 0);
    }

    @Override
    public boolean isEventEnabled(final EventType type)
    {
        // the API cannot query it: this is what this process asked for (self-disabling types may have fired since)
        return enabled.get(type.id()) != 0;
    }

    @Override
    public RfmStatus sendEvent(final int toNode, final EventType type, final int data)
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
        final RfmStatus status = status(Rfm2gLibrary.RFM2gSendEvent(handle, (short)toNode, vendorEvent(type), data));
        if (status == RfmStatus.SUCCESS)
        {
            counters.incrementAndGet(RfmCounter.EVENTS_SENT.slot(type));
        }
        else
        {
            counters.incrementAndGet(RfmCounter.SENDS_REFUSED.id());
        }
        return status;
    }

    /**
     * As {@link #sendEvent(int, EventType, int)}: the card has no DMA on arrival, so the frame's place is checked
     * and then not used. Receivers on the same network read the frame themselves (on-demand mode).
     */
    @Override
    public RfmStatus sendEvent(final int toNode, final EventType type, final int data, final long rfmOffset,
        final int length)
    {
        if (rfmOffset >= 0 && ((rfmOffset & (DmaEngine.RFM_OFFSET_ALIGNMENT - 1)) != 0 || length <= 0 ||
            length % DmaEngine.LENGTH_MULTIPLE != 0 || rfmOffset > memorySize - length))
        {
            throw new RfmException((rfmOffset & 7) != 0 ? RfmStatus.UNALIGNED_OFFSET : RfmStatus.OUT_OF_RANGE,
                String.format("frame of %d bytes at offset 0x%x is not 8-byte aligned, a multiple of 8 and inside " +
                "the memory", length, rfmOffset));
        }
        return sendEvent(toNode, type, data);
    }

    @Override
    public RfmStatus awaitEvent(final EventType type, final long timeoutNanos, final EventInfo into)
    {
        if (closed)
        {
            return RfmStatus.NOT_OPEN;
        }
        final int t = type.id();
        // one waiter per type in this process too: a second one must not touch the first one's RFM2GEVENTINFO
        if (!waiting.compareAndSet(t, 0, 1))
        {
            return RfmStatus.EVENT_IN_USE;
        }
        try
        {
            return waitHeld(type, timeoutMillis(timeoutNanos), into);
        }
        finally
        {
            waiting.set(t, 0);
        }
    }

    /**
     * The driver sleeps one jiffy even for {@code RFM2G_NO_WAIT} when its queue is empty, so look at the queue
     * ({@code RFM2gGetEventStats}, EventsQueued) first and wait only when an event is there. An empty software
     * queue with events still in the card's FIFO (the interrupt masked while the queue was full) is fine: the next
     * blocking wait re-enables the interrupt and returns at once.
     */
    @Override
    public RfmStatus pollEvent(final EventType type, final EventInfo into)
    {
        if (closed)
        {
            return RfmStatus.NOT_OPEN;
        }
        final int t = type.id();
        if (!waiting.compareAndSet(t, 0, 1))
        {
            return RfmStatus.EVENT_IN_USE;
        }
        try
        {
            final int base = t * INFO_STRIDE;
            qinfos.setMemory(base, QINFO_SIZE, (byte)0);
            qinfos.putByte(base + QINFO_EVENT, (byte)vendorEvent(type));
            final int code = Rfm2gLibrary.RFM2gGetEventStats(handle, qinfosAddress + base);
            if (code != SUCCESS)
            {
                return status(code);
            }
            if (qinfos.getInt(base + QINFO_EVENTS_QUEUED) == 0)
            {
                return RfmStatus.TIMED_OUT;
            }
            return waitHeld(type, Rfm2gCodes.NO_WAIT, into);
        }
        finally
        {
            waiting.set(t, 0);
        }
    }

    /** One RFM2gWaitForEvent; the caller holds the type's waiter flag. */
    private RfmStatus waitHeld(final EventType type, final int timeoutMillis, final EventInfo into)
    {
        final int base = type.id() * INFO_STRIDE;
        infos.putInt(base + EVENT_INFO_EXTENDED_INFO, 0);
        infos.putInt(base + EVENT_INFO_EVENT, vendorEvent(type));
        infos.putInt(base + EVENT_INFO_TIMEOUT, timeoutMillis);
        infos.putShort(base + EVENT_INFO_NODE_ID, (short)0);
        infos.putLong(base + EVENT_INFO_DRV_SPEC, 0);
        final int code = Rfm2gLibrary.RFM2gWaitForEvent(handle, infosAddress + base);
        if (code == SUCCESS)
        {
            into.set(type, infos.getShort(base + EVENT_INFO_NODE_ID) & 0xFFFF,
                infos.getInt(base + EVENT_INFO_EXTENDED_INFO), System.nanoTime());
            return RfmStatus.SUCCESS;
        }
        final RfmStatus status = status(code);
        if (status == RfmStatus.TIMED_OUT)
        {
            counters.incrementAndGet(RfmCounter.AWAIT_TIMEOUTS.id());
        }
        else if (status == RfmStatus.WAIT_EVENT_CANCELED)
        {
            counters.incrementAndGet(RfmCounter.AWAIT_CANCELS.id());
        }
        return status;
    }

    /**
     * @param timeoutNanos {@link #INFINITE_TIMEOUT}, {@link #NO_WAIT} or nanoseconds.
     * @return the vendor time-out: milliseconds, rounded up, at least 1 for a positive time.
     */
    static int timeoutMillis(final long timeoutNanos)
    {
        if (timeoutNanos < 0)
        {
            return Rfm2gCodes.INFINITE_TIMEOUT;
        }
        if (timeoutNanos == 0)
        {
            return Rfm2gCodes.NO_WAIT;
        }
        final long millis = (timeoutNanos + 999_999) / 1_000_000;
        return millis >= 0xFFFFFFFEL ? 0xFFFFFFFE : (int)millis;
    }

    @Override
    public void cancelAwait(final EventType type)
    {
        if (!closed)
        {
            // EVENT_NOT_IN_USE when nobody waits: no effect, as the interface says
            Rfm2gLibrary.RFM2gCancelWaitForEvent(handle, vendorEvent(type));
        }
    }

    @Override
    public synchronized int clearEvents(final EventType type)
    {
        ensureOpen();
        int cleared = 0;
        for (final EventType t : EventType.values())
        {
            if (type == null || type == t)
            {
                cleared += (int)stats(t).eventsQueued();
            }
        }
        check("RFM2gClearEvent", Rfm2gLibrary.RFM2gClearEvent(handle, type == null ? EVENT_LAST : vendorEvent(type)));
        return cleared;
    }

    @Override
    public synchronized Rfm2gEventStats eventStats(final EventType type)
    {
        ensureOpen();
        return stats(type);
    }

    @Override
    public synchronized void clearEventCounts(final EventType type)
    {
        ensureOpen();
        final int code = type == null ? EVENT_LAST : vendorEvent(type);
        check("RFM2gClearEventCount", Rfm2gLibrary.RFM2gClearEventCount(handle, code));
        if (type == null)
        {
            for (final EventType t : EventType.values())
            {
                check("RFM2gClearEventStats(" + t + ")", Rfm2gLibrary.RFM2gClearEventStats(handle, vendorEvent(t)));
            }
        }
        else
        {
            check("RFM2gClearEventStats(" + type + ")", Rfm2gLibrary.RFM2gClearEventStats(handle, code));
        }
    }

    private Rfm2gEventStats stats(final EventType type)
    {
        scratch.setMemory(0, QINFO_SIZE, (byte)0);
        scratch.putByte(QINFO_EVENT, (byte)vendorEvent(type));
        check("RFM2gGetEventStats(" + type + ")", Rfm2gLibrary.RFM2gGetEventStats(handle, scratchAddress));
        return new Rfm2gEventStats(type, scratch.getByte(QINFO_OVERFLOWED) != 0,
            scratch.getByte(QINFO_QUEUE_PEAK) & 0xFF, scratch.getInt(QINFO_EVENT_COUNT) & 0xFFFFFFFFL,
            scratch.getInt(QINFO_EVENTS_QUEUED) & 0xFFFFFFFFL, scratch.getInt(QINFO_QUEUE_SIZE) & 0xFFFFFFFFL,
            scratch.getInt(QINFO_MAX_QUEUE_SIZE) & 0xFFFFFFFFL, scratch.getInt(QINFO_EVENT_TIMEOUT) & 0xFFFFFFFFL);
    }

    /**
     * {@link RfmCounter#EVENTS_RECEIVED} is the driver's count ({@code RFM2gGetEventCount}, 32 bits); the rest are
     * what this process did through the card.
     */
    @Override
    public synchronized long counter(final RfmCounter counter, final EventType type)
    {
        if (counter == RfmCounter.EVENTS_RECEIVED && !closed)
        {
            check("RFM2gGetEventCount(" + type + ")", Rfm2gLibrary.RFM2gGetEventCount(handle, vendorEvent(type),
                scratchAddress));
            return scratch.getInt(0) & 0xFFFFFFFFL;
        }
        return counters.get(counter.slot(counter.perType() ? type : null));
    }

    // ----------------------------------------------------------------------------------------------- utility

    @Override
    public RfmStatus checkRingContinuity()
    {
        return closed ? RfmStatus.NOT_OPEN : status(Rfm2gLibrary.RFM2gCheckRingCont(handle));
    }

    @Override
    public synchronized void loopback(final boolean on)
    {
        ensureOpen();
        check("RFM2gSetLoopback", Rfm2gLibrary.RFM2gSetLoopback(handle, bool(on)));
    }

    @Override
    public synchronized boolean loopback()
    {
        return bool("RFM2gGetLoopback", Rfm2gLibrary.RFM2gGetLoopback(handle, clearedScratch()));
    }

    @Override
    public synchronized void transmit(final boolean on)
    {
        ensureOpen();
        check("RFM2gSetTransmit", Rfm2gLibrary.RFM2gSetTransmit(handle, bool(on)));
    }

    @Override
    public synchronized boolean transmit()
    {
        return bool("RFM2gGetTransmit", Rfm2gLibrary.RFM2gGetTransmit(handle, clearedScratch()));
    }

    @Override
    public synchronized void led(final boolean on)
    {
        ensureOpen();
        check("RFM2gSetLed", Rfm2gLibrary.RFM2gSetLed(handle, bool(on)));
    }

    @Override
    public synchronized boolean led()
    {
        return bool("RFM2gGetLed", Rfm2gLibrary.RFM2gGetLed(handle, clearedScratch()));
    }

    /** Call with the monitor held: checks the card is open and clears the scratch word. */
    private long clearedScratch()
    {
        ensureOpen();
        scratch.putLong(0, 0);
        return scratchAddress;
    }

    private boolean bool(final String call, final int code)
    {
        check(call, code);
        return scratch.getByte(0) != 0;
    }

    private static byte bool(final boolean on)
    {
        return on ? (byte)1 : (byte)0;
    }

    @Override
    public synchronized long peek(final int width, final long offset)
    {
        ensureOpen();
        final int o = offset32(offset);
        scratch.putLong(0, 0);
        switch (width)
        {
            case 1 -> check("RFM2gPeek8", Rfm2gLibrary.RFM2gPeek8(handle, o, scratchAddress));
            case 2 -> check("RFM2gPeek16", Rfm2gLibrary.RFM2gPeek16(handle, o, scratchAddress));
            case 4 -> check("RFM2gPeek32", Rfm2gLibrary.RFM2gPeek32(handle, o, scratchAddress));
            case 8 -> check("RFM2gPeek64", Rfm2gLibrary.RFM2gPeek64(handle, o, scratchAddress));
            default -> throw badWidth(width);
        }
        return scratch.getLong(0);
    }

    @Override
    public synchronized void poke(final int width, final long offset, final long value)
    {
        ensureOpen();
        final int o = offset32(offset);
        switch (width)
        {
            case 1 -> check("RFM2gPoke8", Rfm2gLibrary.RFM2gPoke8(handle, o, (byte)value));
            case 2 -> check("RFM2gPoke16", Rfm2gLibrary.RFM2gPoke16(handle, o, (short)value));
            case 4 -> check("RFM2gPoke32", Rfm2gLibrary.RFM2gPoke32(handle, o, (int)value));
            case 8 -> check("RFM2gPoke64", Rfm2gLibrary.RFM2gPoke64(handle, o, value));
            default -> throw badWidth(width);
        }
    }

    private static RfmException badWidth(final int width)
    {
        return new RfmException(RfmStatus.BAD_PARAMETER, "peek/poke width " + width + " is not 1, 2, 4 or 8");
    }

    private static int offset32(final long offset)
    {
        if (offset < 0 || offset > 0xFFFFFFFFL)
        {
            throw new RfmException(RfmStatus.OUT_OF_RANGE, "offset " + offset + " is outside 0..0xFFFFFFFF");
        }
        return (int)offset;
    }

    @Override
    public void read(final long rfmOffset, final ByteBuffer dst, final int index, final int length)
    {
        ensureOpen();
        check("RFM2gRead", Rfm2gLibrary.RFM2gRead(handle, offset32(rfmOffset), address(dst, index, length), length));
    }

    @Override
    public void write(final long rfmOffset, final ByteBuffer src, final int index, final int length)
    {
        ensureOpen();
        check("RFM2gWrite", Rfm2gLibrary.RFM2gWrite(handle, offset32(rfmOffset), address(src, index, length),
            length));
    }

    private static long address(final ByteBuffer buffer, final int index, final int length)
    {
        if (!buffer.isDirect() || index < 0 || length < 0 || index > buffer.capacity() - length)
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "host buffer must be direct and hold " + length +
                " bytes at index " + index + " (capacity " + buffer.capacity() + ")");
        }
        return BufferUtil.address(buffer) + index;
    }

    @Override
    public DmaEngine dma()
    {
        return dma;
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new RfmException(RfmStatus.NOT_OPEN, "rfm2g " + devicePath + " is closed");
        }
    }

    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        // a waiter still inside the driver must leave before the handle goes
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (final EventType type : EventType.values())
        {
            while (waiting.get(type.id()) != 0 && System.nanoTime() < deadline)
            {
                Rfm2gLibrary.RFM2gCancelWaitForEvent(handle, vendorEvent(type));
                Thread.yield();
            }
        }
        scratch.putLong(0, windowAddress);
        Rfm2gLibrary.RFM2gUnMapUserMemoryBytes(handle, scratchAddress, (int)memorySize);
        if (dmaAddress != 0)
        {
            scratch.putLong(0, dmaAddress);
            Rfm2gLibrary.RFM2gUnMapUserMemoryBytes(handle, scratchAddress, dmaBytes);
        }
        scratch.putLong(0, handle);
        Rfm2gLibrary.RFM2gClose(scratchAddress);
    }
}
