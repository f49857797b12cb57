package io.rfmrt.rfm.internal.rfm2g;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;

/**
 * JNA direct mapping of the vendor's RFM2g C API ({@code rfm2g_api.h} and the Linux extras of
 * {@code rfm2g_osspec.h}). Direct mapping turns each call into one native call with primitive arguments: no
 * marshalling objects, no allocation, which the receive path needs.
 * <p>
 * Every pointer argument ({@code RFM2GHANDLE}, {@code void *}, out-parameters) is passed as a {@code long} address,
 * so callers pass addresses of native memory they allocated once. {@code RFM2G_NODE} is a {@code short},
 * {@code RFM2G_BOOL} and {@code RFM2G_UINT8} a {@code byte}, enums and {@code RFM2G_UINT32} an {@code int}, the
 * {@code RFM2G_UINT64} offset of {@code RFM2gUserMemoryBytes} a {@code long}. That is the LP64 ABI of 64-bit Linux,
 * the only platform the backend supports.
 * <p>
 * Thread safety: the vendor library's calls are thread safe per handle except where noted in the driver manual;
 * the device class serialises the calls that share scratch memory.
 */
public final class Rfm2gLibrary
{
    /** System property naming the library to load: a name ({@code rfm2g} = {@code librfm2g.so}) or a path. */
    public static final String LIBRARY_PROPERTY = "rfmrt.rfm2g.library";

    /** Default library name. */
    public static final String DEFAULT_LIBRARY = "rfm2g";

    private static String loaded;

    private Rfm2gLibrary()
    {
    }

    /**
     * @return the library named by {@value #LIBRARY_PROPERTY}, or {@value #DEFAULT_LIBRARY}.
     */
    public static String configuredName()
    {
        final String name = System.getProperty(LIBRARY_PROPERTY);
        return name == null || name.isBlank() ? DEFAULT_LIBRARY : name.trim();
    }

    /**
     * Load the vendor library and bind the natives of this class to it, once per JVM.
     *
     * @param name a library name or path.
     * @throws RfmException NOT_FOUND with one line naming the library and where it was looked for.
     */
    public static synchronized void load(final String name)
    {
        final NativeLibrary library;
        try
        {
            library = NativeLibrary.getInstance(name);
        }
        catch (final UnsatisfiedLinkError ex)
        {
            final String path = System.getProperty("jna.library.path");
            throw new RfmException(RfmStatus.NOT_FOUND, "rfm2g backend: cannot load the vendor library '" + name +
                "' (" + (name.contains("/") ? name : System.mapLibraryName(name)) + ") from jna.library.path=" +
                (path == null || path.isBlank() ? "(not set)" : path) + " or the system library path; install " +
                "the RFM2g package and its shared library, or name it with -D" + LIBRARY_PROPERTY + "=PATH");
        }
        if (loaded != null)
        {
            if (!loaded.equals(name))
            {
                throw new RfmException(RfmStatus.BAD_PARAMETER, "rfm2g backend: library '" + loaded +
                    "' is already bound in this JVM, '" + name + "' cannot be bound as well");
            }
            return;
        }
        try
        {
            Native.register(Rfm2gLibrary.class, library);
        }
        catch (final UnsatisfiedLinkError ex)
        {
            throw new RfmException(RfmStatus.NOT_FOUND, "rfm2g backend: library " + library.getFile() +
                " is not the RFM2g API: " + firstLine(ex.getMessage()));
        }
        loaded = name;
    }

    private static String firstLine(final String text)
    {
        if (text == null)
        {
            return "(no detail)";
        }
        final int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }

    // ------------------------------------------------------------------------------------------ open, config

    static native int RFM2gOpen(String devicePath, long handleOut);

    static native int RFM2gClose(long handleInOut);

    static native int RFM2gGetConfig(long handle, long config);

    static native int RFM2gUserMemoryBytes(long handle, long pointerOut, long offset, int bytes);

    static native int RFM2gUnMapUserMemoryBytes(long handle, long pointerInOut, int bytes);

    static native int RFM2gFirst(long handle, long firstOut);

    static native int RFM2gGetDMAThreshold(long handle, long thresholdOut);

    static native int RFM2gSetDMAThreshold(long handle, int threshold);

    // ---------------------------------------------------------------------------------------- data transfer

    static native int RFM2gRead(long handle, int offset, long buffer, int length);

    static native int RFM2gWrite(long handle, int offset, long buffer, int length);

    static native int RFM2gPeek8(long handle, int offset, long valueOut);

    static native int RFM2gPeek16(long handle, int offset, long valueOut);

    static native int RFM2gPeek32(long handle, int offset, long valueOut);

    static native int RFM2gPeek64(long handle, int offset, long valueOut);

    static native int RFM2gPoke8(long handle, int offset, byte value);

    static native int RFM2gPoke16(long handle, int offset, short value);

    static native int RFM2gPoke32(long handle, int offset, int value);

    static native int RFM2gPoke64(long handle, int offset, long value);

    // ----------------------------------------------------------------------------------------------- events

    static native int RFM2gEnableEvent(long handle, int eventType);

    static native int RFM2gDisableEvent(long handle, int eventType);

    static native int RFM2gSendEvent(long handle, short toNode, int eventType, int extendedData);

    static native int RFM2gWaitForEvent(long handle, long eventInfo);

    static native int RFM2gCancelWaitForEvent(long handle, int eventType);

    static native int RFM2gClearEvent(long handle, int eventType);

    static native int RFM2gClearEventCount(long handle, int eventType);

    static native int RFM2gGetEventCount(long handle, int eventType, long countOut);

    static native int RFM2gGetEventStats(long handle, long queueInfo);

    static native int RFM2gClearEventStats(long handle, int eventType);

    // ---------------------------------------------------------------------------------------------- utility

    static native String RFM2gErrorMsg(int status);

    static native int RFM2gGetLed(long handle, long ledOut);

    static native int RFM2gSetLed(long handle, byte led);

    static native int RFM2gCheckRingCont(long handle);

    static native int RFM2gGetTransmit(long handle, long stateOut);

    static native int RFM2gSetTransmit(long handle, byte state);

    static native int RFM2gGetLoopback(long handle, long stateOut);

    static native int RFM2gSetLoopback(long handle, byte state);
}
