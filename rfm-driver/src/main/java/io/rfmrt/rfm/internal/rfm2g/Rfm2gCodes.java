package io.rfmrt.rfm.internal.rfm2g;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmStatus;

/**
 * The vendor's numbers: {@code RFM2G_STATUS} codes (in the order of {@code rfm2g_errno.h}, so a code is the index
 * of its name), {@code RFM2GEVENTTYPE} values and the structure layouts of {@code rfm2g_defs.h} and
 * {@code rfm2g_defs_linux.h} on LP64 Linux. The struct layout test checks every value here against the C compiler.
 */
public final class Rfm2gCodes
{
    /** {@code RFM2G_STATUS} names without the {@code RFM2G_} prefix; the index is the code. */
    static final String[] STATUS_NAMES = {
        "SUCCESS", "NOT_IMPLEMENTED", "DRIVER_ERROR", "TIMED_OUT", "LOW_MEMORY", "MEM_NOT_MAPPED", "OS_ERROR",
        "EVENT_IN_USE", "NOT_SUPPORTED", "NOT_OPEN", "NO_RFM2G_BOARD", "BAD_PARAMETER_1", "BAD_PARAMETER_2",
        "BAD_PARAMETER_3", "BAD_PARAMETER_4", "BAD_PARAMETER_5", "BAD_PARAMETER_6", "BAD_PARAMETER_7",
        "BAD_PARAMETER_8", "BAD_PARAMETER_9", "OUT_OF_RANGE", "MAP_NOT_ALLOWED", "LINK_TEST_FAIL", "MEM_READ_ONLY",
        "UNALIGNED_OFFSET", "UNALIGNED_ADDRESS", "LSEEK_ERROR", "READ_ERROR", "WRITE_ERROR", "HANDLE_NOT_NULL",
        "MODULE_NOT_LOADED", "NOT_ENABLED", "ALREADY_ENABLED", "EVENT_NOT_IN_USE", "BAD_RFM2G_BOARD_ID",
        "NULL_DESCRIPTOR", "WAIT_EVENT_CANCELED", "DMA_FAILED", "NOT_INITIALIZED", "UNALIGNED_LENGTH", "SIGNALED",
        "NODE_ID_SELF"};

    /** {@code RFM2G_SUCCESS}. */
    public static final int SUCCESS = 0;
    /** {@code RFM2G_EVENT_IN_USE}. */
    public static final int EVENT_IN_USE = 7;
    /** {@code RFM2G_NOT_ENABLED}. */
    public static final int NOT_ENABLED = 31;
    /** {@code RFM2G_EVENT_NOT_IN_USE}. */
    public static final int EVENT_NOT_IN_USE = 33;
    /** {@code RFM2G_MAX_ERROR_CODE}, one above the last code. */
    public static final int MAX_ERROR_CODE = 42;

    /** {@code RFM2GEVENT_LAST}: the number of event types, and "every type" for the clear calls. */
    public static final int EVENT_LAST = 12;
    /** {@code RFM2G_INFINITE_TIMEOUT}. */
    public static final int INFINITE_TIMEOUT = 0xFFFFFFFF;
    /** {@code RFM2G_NO_WAIT}. */
    public static final int NO_WAIT = 0;
    /** {@code RFM2G_DMA_MMAP_OFFSET}: OR-ed into the offset of {@code RFM2gUserMemory} to map the DMA buffer. */
    public static final long DMA_MMAP_OFFSET = 1;
    /** {@code RFM2G_DMA_THRESHOLD_MAX}: the Linux driver's default threshold, "never DMA". */
    public static final long DMA_THRESHOLD_NEVER = 0xFFFFFFFFL;
    /** {@code RFM2G_NODE_ALL}. */
    public static final int NODE_ALL = 0xFFFF;

    /** {@code RFM2GEVENTINFO}: size and field offsets. */
    public static final int EVENT_INFO_SIZE = 24;
    public static final int EVENT_INFO_EXTENDED_INFO = 0;
    public static final int EVENT_INFO_EVENT = 4;
    public static final int EVENT_INFO_TIMEOUT = 8;
    public static final int EVENT_INFO_NODE_ID = 12;
    public static final int EVENT_INFO_DRV_SPEC = 16;

    /** {@code RFM2GCONFIG}: size and field offsets. */
    public static final int CONFIG_SIZE = 244;
    public static final int CONFIG_NODE_ID = 0;
    public static final int CONFIG_BOARD_ID = 2;
    public static final int CONFIG_UNIT = 3;
    public static final int CONFIG_PLX_REVISION = 4;
    public static final int CONFIG_MEMORY_SIZE = 8;
    public static final int CONFIG_DEVICE = 12;
    public static final int CONFIG_DEVICE_LENGTH = 128;
    public static final int CONFIG_NAME = 140;
    public static final int CONFIG_NAME_LENGTH = 32;
    public static final int CONFIG_DRIVER_VERSION = 172;
    public static final int CONFIG_DRIVER_VERSION_LENGTH = 16;
    public static final int CONFIG_BOARD_REVISION = 188;
    public static final int CONFIG_REVISION_ID = 189;
    public static final int CONFIG_LCSR1 = 192;
    public static final int CONFIG_PCI_CONFIG = 196;
    public static final int CONFIG_BUILD_ID = 240;

    /** {@code RFM2GQINFO} (Linux event statistics): size and field offsets. */
    public static final int QINFO_SIZE = 24;
    public static final int QINFO_EVENT = 0;
    public static final int QINFO_OVERFLOWED = 1;
    public static final int QINFO_QUEUE_PEAK = 2;
    public static final int QINFO_EVENT_COUNT = 4;
    public static final int QINFO_EVENTS_QUEUED = 8;
    public static final int QINFO_QUEUE_SIZE = 12;
    public static final int QINFO_MAX_QUEUE_SIZE = 16;
    public static final int QINFO_EVENT_TIMEOUT = 20;

    private static final RfmStatus[] STATUS = new RfmStatus[MAX_ERROR_CODE + 1];
    private static final int[] VENDOR_EVENT = new int[EventType.ID_LIMIT];

    static
    {
        for (int code = 0; code < STATUS_NAMES.length; code++)
        {
            STATUS[code] = map(STATUS_NAMES[code]);
        }
        STATUS[MAX_ERROR_CODE] = RfmStatus.DRIVER_ERROR;
        for (final EventType type : EventType.values())
        {
            VENDOR_EVENT[type.id()] = vendorCode(type.name());
        }
    }

    private Rfm2gCodes()
    {
    }

    /**
     * The mapping by name: a vendor code whose name is an {@link RfmStatus} maps to it; the families the Java API
     * does not split map to their common meaning.
     */
    private static RfmStatus map(final String name)
    {
        for (final RfmStatus status : RfmStatus.values())
        {
            if (status.name().equals(name))
            {
                return status;
            }
        }
        if (name.startsWith("BAD_PARAMETER_") || "NULL_DESCRIPTOR".equals(name) || "HANDLE_NOT_NULL".equals(name) ||
            "UNALIGNED_LENGTH".equals(name))
        {
            return RfmStatus.BAD_PARAMETER;
        }
        return switch (name)
        {
            case "NOT_ENABLED" -> RfmStatus.EVENT_NOT_ENABLED;
            case "UNALIGNED_ADDRESS" -> RfmStatus.UNALIGNED_OFFSET;
            case "NOT_IMPLEMENTED" -> RfmStatus.NOT_SUPPORTED;
            case "NO_RFM2G_BOARD", "MODULE_NOT_LOADED" -> RfmStatus.NOT_FOUND;
            case "MAP_NOT_ALLOWED", "MEM_READ_ONLY" -> RfmStatus.OUT_OF_RANGE;
            case "LOW_MEMORY", "MEM_NOT_MAPPED", "LSEEK_ERROR", "READ_ERROR", "WRITE_ERROR", "SIGNALED" ->
                RfmStatus.OS_ERROR;
            case "BAD_RFM2G_BOARD_ID" -> RfmStatus.BAD_LAYOUT;
            default -> RfmStatus.DRIVER_ERROR;
        };
    }

    private static int vendorCode(final String eventName)
    {
        return switch (eventName)
        {
            case "RESET" -> 0;
            case "INTR1" -> 1;
            case "INTR2" -> 2;
            case "INTR3" -> 3;
            case "INTR4" -> 4;
            case "BAD_DATA" -> 5;
            case "RXFIFO_FULL" -> 6;
            case "ROGUE_PKT" -> 7;
            case "SYNC_LOSS" -> 9;
            default -> throw new AssertionError("no RFM2GEVENTTYPE for " + eventName);
        };
    }

    /**
     * Allocation-free: a table look-up.
     *
     * @param code an {@code RFM2G_STATUS} value.
     * @return the Java status; unknown codes are DRIVER_ERROR.
     */
    public static RfmStatus status(final int code)
    {
        return code >= 0 && code <= MAX_ERROR_CODE ? STATUS[code] : RfmStatus.DRIVER_ERROR;
    }

    /**
     * @param code an {@code RFM2G_STATUS} value.
     * @return its vendor name, e.g. {@code RFM2G_EVENT_IN_USE}.
     */
    public static String statusName(final int code)
    {
        return code >= 0 && code < STATUS_NAMES.length ? "RFM2G_" + STATUS_NAMES[code] : "RFM2G status " + code;
    }

    /**
     * @param type an event type.
     * @return its {@code RFM2GEVENTTYPE} value.
     */
    public static int vendorEvent(final EventType type)
    {
        return VENDOR_EVENT[type.id()];
    }
}
