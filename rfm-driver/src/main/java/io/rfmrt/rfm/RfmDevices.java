package io.rfmrt.rfm;

import io.rfmrt.rfm.internal.rfm2g.Rfm2gDevice;
import io.rfmrt.rfm.internal.rfm2g.Rfm2gLibrary;
import io.rfmrt.rfm.internal.sim.DmaRing;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import io.rfmrt.rfm.internal.sim.SimDevice;
import io.rfmrt.rfm.sim.HostBridge;
import io.rfmrt.rfm.sim.SimNetwork;

import java.util.LinkedHashMap;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Opens devices from URIs, so that the backend is configuration, not code.
 * <pre>
 *   sim:NETWORK?node=N[&amp;size=16M][&amp;dma=auto|on-demand][&amp;dmaSlots=64][&amp;dmaSlotSize=2048]
 *       [&amp;dmaPolicy=drop-newest|backpressure][&amp;dmaWait=1ms][&amp;loopback=true]
 *   bridge:NETWORK?node=N[...]   (the sim parameters; the network must be bridged on this host)
 *   rfm2g:/dev/rfm2g0[?dmaThreshold=BYTES|never][&amp;dmaBase=PHYS][&amp;dmaSlots=64][&amp;dmaSlotSize=2048]
 *       [&amp;dma=on-demand]
 * </pre>
 * NETWORK is a name; the folder that holds networks is {@code /dev/shm/rfmrt} unless {@code RFMRT_SIM_ROOT} (or the
 * system property {@code rfmrt.sim.root}) names another. A {@code sim} device joins the network, creating it with
 * {@code size} (default 16 MiB) if it does not exist yet, as plugging a card into a ring; on a network that a bridge
 * joins to other hosts (docs/protocol.md) it logs its writes and remote events for the bridge. A {@code bridge}
 * device is the same, refused when the network is not bridged on this host. An {@code rfm2g} device is
 * a card through the vendor library ({@code librfm2g.so}, or the library named by the system property
 * {@value Rfm2gLibrary#LIBRARY_PROPERTY}): {@code dmaThreshold} sets the driver's DMA threshold (default: keep the
 * driver's), {@code dmaBase} is the physical address of the boot-reserved DMA buffer (without it the host buffers
 * are ordinary memory and the driver reads by PIO). The card offers on-demand DMA only.
 */
public final class RfmDevices
{
    private static final Set<String> SIM_KEYS = Set.of("node", "size", "dma", "dmaSlots", "dmaSlotSize",
        "dmaPolicy", "dmaWait", "loopback");
    private static final Set<String> RFM2G_KEYS = Set.of("dmaThreshold", "dmaBase", "dma", "dmaSlots",
        "dmaSlotSize");

    private RfmDevices()
    {
    }

    /**
     * @param uri a device URI.
     * @return the open device; close it to release the node.
     * @throws RfmException with a message naming the bad part of the URI, or why the node cannot be had.
     */
    public static RfmDevice open(final String uri)
    {
        return open(uri, true);
    }

    /**
     * Check a device URI's form without opening or making anything: the backend, the parameters and their values, the
     * network's name. What only opening can tell (the network is not bridged here, the card is absent or busy, no room
     * for a new network) is left to {@link #open}.
     *
     * @param uri a device URI.
     * @throws RfmException with a message naming the bad part of the URI.
     */
    public static void checkUri(final String uri)
    {
        open(uri, false);
    }

    /**
     * What opening a device URI would give, found without opening or making anything: the node id it asks for and the
     * memory of the network it joins (the existing network's, else the size a new one gets), so that a node's
     * settings are checked against them before anything is made. Its form is checked as by {@link #checkUri}.
     *
     * @param uri a device URI.
     * @return the plan; its parts that only the device can tell are {@link Plan#UNKNOWN}.
     * @throws RfmException with a message naming the bad part of the URI, or the existing network when it cannot be
     *                      read (as opening it would).
     */
    public static Plan plan(final String uri)
    {
        final SimUri sim = (SimUri)parse(uri, false);
        if (sim == null)
        {
            // a card: its node id and memory are the card's, known once it is open
            return new Plan(Plan.UNKNOWN, Plan.UNKNOWN, false);
        }
        final Path dir = SimNetwork.checkedDir(sim.network, false);
        if (NetworkImage.exists(dir))
        {
            try (NetworkImage image = NetworkImage.attach(dir, sim.network))
            {
                return new Plan(sim.node, image.memorySize(), false);
            }
        }
        if ("bridge".equals(sim.scheme))
        {
            // a bridge device does not make a network: it is refused at the start when there is none
            return new Plan(sim.node, Plan.UNKNOWN, false);
        }
        NetworkImage.checkMemorySize(sim.size);
        return new Plan(sim.node, sim.size, true);
    }

    /**
     * The folder for files kept beside the device of a URI (a node's counters file, say): the emulated network's
     * folder for {@code sim:NETWORK?...} and {@code bridge:NETWORK?...}, and for a card ({@code rfm2g:/dev/rfm2g0}) a
     * folder named after its device node ({@code rfm2g0}) beside the networks. The URI's parameters are not read. The
     * folders are checked as the networks' are: not a symbolic link, owned by this user or root, not writable by
     * every user.
     *
     * @param uri    a device URI.
     * @param create create the folder (and the folder holding networks), mode 0770, when missing.
     * @return the folder; it exists when {@code create} is true.
     * @throws RfmException             naming the value when the folder's name is no usable name, or why a folder
     *                                  on disk is refused.
     * @throws IllegalArgumentException when a card's URI names no device node.
     */
    public static Path folder(final String uri, final boolean create)
    {
        return SimNetwork.checkedDir(folderName(uri), create);
    }

    /** The name of the folder {@link #folder} gives: the network's name, or a card's device node's file name. */
    private static String folderName(final String uri)
    {
        final int colon = uri.indexOf(':');
        final String rest = uri.substring(colon + 1);
        final int question = rest.indexOf('?');
        final String name = question < 0 ? rest : rest.substring(0, question);
        if (uri.startsWith("sim:"))
        {
            return name;
        }
        final Path path = Path.of(name).getFileName();
        if (path == null)
        {
            throw new IllegalArgumentException("device URI '" + uri + "' names no device node");
        }
        return path.toString();
    }

    /**
     * @param network the name of an emulated network.
     * @return whether that network exists on this host.
     * @throws RfmException BAD_PARAMETER naming the value if it is no usable network name, or why its folder is
     *                      refused.
     */
    public static boolean networkExists(final String network)
    {
        return SimNetwork.exists(network);
    }

    /**
     * Remove an emulated network and its files at once, even while devices of it are open (their mappings stay valid
     * until they close), as {@code rfmrt rfm destroy --force} does: for a network a process made for itself (a
     * {@code sim} URI on a name no other process uses) and is done with.
     *
     * @param network the name of an emulated network.
     * @throws RfmException NOT_FOUND if it does not exist, BAD_PARAMETER naming the value if it is no usable network
     *                      name.
     */
    public static void destroyNetwork(final String network)
    {
        SimNetwork.destroy(network, true);
    }

    /**
     * What opening a device URI would give ({@link #plan}).
     *
     * @param nodeId     the node id, or {@link #UNKNOWN} when only the device can tell (a card).
     * @param memorySize bytes of memory of the network, or {@link #UNKNOWN} when only the device can tell.
     * @param creates    whether opening makes the network (a {@code sim} device on a network that is not there).
     */
    public record Plan(int nodeId, long memorySize, boolean creates)
    {
        /** A part that only the open device can tell. */
        public static final int UNKNOWN = -1;
    }

    /** A {@code sim} or {@code bridge} URI, its parameters checked. */
    private record SimUri(String scheme, String network, int node, long size, DmaMode mode, DmaRingFullPolicy policy,
        int slots, int slotSize, boolean loopback, long dmaWaitNs)
    {
    }

    private static RfmDevice open(final String uri, final boolean open)
    {
        final Object parsed = parse(uri, open);
        if (!(parsed instanceof SimUri sim))
        {
            return (RfmDevice)parsed;
        }
        if (!open)
        {
            return null;
        }
        final String network = sim.network;
        if ("bridge".equals(sim.scheme) && !HostBridge.present(SimNetwork.checkedDir(network, false)))
        {
            throw new RfmException(RfmStatus.NOT_FOUND, "device URI '" + uri + "': network '" + network +
                "' is not bridged on this host (no bridge file): start rfmrt bridge --network " + network + " first");
        }
        if (!NetworkImage.exists(SimNetwork.checkedDir(network, false)))
        {
            NetworkImage.checkMemorySize(sim.size);
        }
        final Path dir = SimNetwork.checkedDir(network, false);
        final boolean folderExisted = Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS);
        final NetworkImage image;
        try
        {
            image = NetworkImage.createOrAttach(SimNetwork.checkedDir(network, true), network, sim.size);
        }
        catch (final RuntimeException ex)
        {
            if (!folderExisted)
            {
                // a refused create leaves nothing, not even the folder
                SimNetwork.removeIfEmpty(dir);
            }
            throw ex;
        }
        return SimDevice.open(uri, image, sim.node, sim.mode, sim.policy, sim.slots, sim.slotSize, sim.loopback,
            sim.dmaWaitNs);
    }

    /**
     * @return a {@link SimUri} for a {@code sim} or {@code bridge} URI; for a card URI, the open card when
     *         {@code open}, else null.
     */
    private static Object parse(final String uri, final boolean open)
    {
        final int colon = uri == null ? -1 : uri.indexOf(':');
        if (colon <= 0)
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri +
                "' has no backend (expected e.g. sim:lab1?node=1)");
        }
        final String scheme = uri.substring(0, colon);
        final String rest = uri.substring(colon + 1);
        final int question = rest.indexOf('?');
        final String network = question < 0 ? rest : rest.substring(0, question);
        if ("rfm2g".equals(scheme))
        {
            return openRfm2g(uri, network, parseQuery(uri, question < 0 ? "" : rest.substring(question + 1),
                RFM2G_KEYS), open);
        }
        if (!"sim".equals(scheme) && !"bridge".equals(scheme))
        {
            throw new RfmException(RfmStatus.NOT_FOUND, "device URI '" + uri + "': backend '" + scheme +
                "' is not available in this build (sim, bridge, rfm2g)");
        }
        final Map<String, String> params = parseQuery(uri, question < 0 ? "" : rest.substring(question + 1),
            SIM_KEYS);

        final String nodeText = params.get("node");
        if (nodeText == null)
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri + "' needs node=N (0-255)");
        }
        final int node = (int)number(uri, "node", nodeText, 0, RfmDevice.MAX_NODE_ID);
        final long size = params.containsKey("size") ? size(uri, params.get("size")) : NetworkImage.DEFAULT_MEMORY_SIZE;
        final DmaMode mode;
        final DmaRingFullPolicy policy;
        try
        {
            mode = DmaMode.parse(params.getOrDefault("dma", "auto"));
            policy = DmaRingFullPolicy.parse(params.getOrDefault("dmaPolicy", "drop-newest"));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri + "': " + ex.getMessage());
        }
        final int slots = (int)number(uri, "dmaSlots",
            params.getOrDefault("dmaSlots", Integer.toString(DmaRing.DEFAULT_SLOT_COUNT)), 2, 65536);
        final int slotSize = (int)size(uri, params.getOrDefault("dmaSlotSize",
            Integer.toString(DmaRing.DEFAULT_SLOT_SIZE)));
        final String loopbackText = params.getOrDefault("loopback", "false");
        if (!"true".equals(loopbackText) && !"false".equals(loopbackText))
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri + "': loopback '" + loopbackText +
                "' is not true or false");
        }
        final long dmaWaitNs = dmaWait(uri, params.get("dmaWait"), policy);
        try
        {
            SimNetwork.checkName(network);
        }
        catch (final RfmException ex)
        {
            throw new RfmException(ex.status(), "device URI '" + uri + "': " + ex.getMessage());
        }
        return new SimUri(scheme, network, node, size, mode, policy, slots, slotSize,
            Boolean.parseBoolean(loopbackText), dmaWaitNs);
    }

    /**
     * The longest wait of a DMA transfer for a free descriptor, {@code dmaWait}: a duration with its unit, 0 to 1 h,
     * and only beside {@code dmaPolicy=backpressure} (a dropping ring never waits).
     */
    private static long dmaWait(final String uri, final String text, final DmaRingFullPolicy policy)
    {
        if (text == null)
        {
            return DmaRing.DEFAULT_BACKPRESSURE_TIMEOUT_NS;
        }
        if (policy != DmaRingFullPolicy.BACKPRESSURE)
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri + "': dmaWait " + text +
                " needs dmaPolicy=backpressure (a ring that drops never waits)");
        }
        long nanos = -1;
        try
        {
            if (!text.isEmpty() && !Character.isDigit(text.charAt(text.length() - 1)))
            {
                nanos = Units.parseDuration(text, TimeUnit.NANOSECONDS);
            }
        }
        catch (final IllegalArgumentException ex)
        {
            nanos = -1;
        }
        if (nanos < 0)
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri + "': dmaWait '" + text +
                "' is not a duration with its unit (e.g. 50ms)");
        }
        if (nanos > DmaRing.MAX_BACKPRESSURE_TIMEOUT_NS)
        {
            throw new RfmException(RfmStatus.OUT_OF_RANGE, "device URI '" + uri + "': dmaWait " + text +
                " is outside 0-1h");
        }
        return nanos;
    }

    private static RfmDevice openRfm2g(final String uri, final String devicePath, final Map<String, String> params,
        final boolean open)
    {
        if (devicePath.isEmpty())
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri +
                "' names no device node (expected e.g. rfm2g:/dev/rfm2g0)");
        }
        final String mode = params.getOrDefault("dma", "on-demand");
        final DmaMode dmaMode;
        try
        {
            dmaMode = DmaMode.parse(mode);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri + "': " + ex.getMessage());
        }
        if (dmaMode != DmaMode.ON_DEMAND)
        {
            throw new RfmException(RfmStatus.NOT_SUPPORTED, "device URI '" + uri + "': the RFM2g card does not " +
                "offer dma=" + mode + " (no DMA on arrival; the receiver reads by RFM2gRead): use dma=on-demand");
        }
        final String thresholdText = params.get("dmaThreshold");
        final long threshold = thresholdText == null ? -1 : "never".equals(thresholdText) ? 0xFFFFFFFFL :
            size(uri, thresholdText);
        if (threshold > 0xFFFFFFFFL)
        {
            throw new RfmException(RfmStatus.OUT_OF_RANGE, "device URI '" + uri + "': dmaThreshold " + threshold +
                " is above 0xFFFFFFFF");
        }
        final String baseText = params.get("dmaBase");
        final long base = baseText == null ? -1 : number(uri, "dmaBase", baseText, 0, Long.MAX_VALUE);
        if (base > 0 && (base & 4095) != 0)
        {
            throw new RfmException(RfmStatus.UNALIGNED_OFFSET, "device URI '" + uri + "': dmaBase " + baseText +
                " is not page aligned");
        }
        final int slots = (int)number(uri, "dmaSlots", params.getOrDefault("dmaSlots",
            Integer.toString(DmaRing.DEFAULT_SLOT_COUNT)), 2, 65536);
        if (Integer.bitCount(slots) != 1)
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri + "': dmaSlots " + slots +
                " is not a power of two");
        }
        final long slotSize = size(uri, params.getOrDefault("dmaSlotSize",
            Integer.toString(DmaRing.DEFAULT_SLOT_SIZE)));
        if (slotSize < 64 || slotSize % 64 != 0 || slotSize * slots > (1L << 30))
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri + "': dmaSlotSize " + slotSize +
                " is not a multiple of 64 (at most 1 GiB over all slots)");
        }
        if (!open)
        {
            return null;
        }
        return Rfm2gDevice.open(uri, devicePath, Rfm2gLibrary.configuredName(), threshold, base, slots,
            (int)slotSize);
    }

    private static Map<String, String> parseQuery(final String uri, final String query, final Set<String> keys)
    {
        final Map<String, String> params = new LinkedHashMap<>();
        if (query.isEmpty())
        {
            return params;
        }
        for (final String pair : query.split("&"))
        {
            final int eq = pair.indexOf('=');
            final String key = eq < 0 ? pair : pair.substring(0, eq);
            if (!keys.contains(key))
            {
                throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri + "': unknown parameter '" +
                    key + "' (known: " + new TreeSet<>(keys) + ")");
            }
            params.put(key, eq < 0 ? "" : pair.substring(eq + 1));
        }
        return params;
    }

    private static long number(final String uri, final String key, final String text, final long min, final long max)
    {
        final long value;
        try
        {
            value = Sizes.parseNumber(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri + "': " + key + " '" + text +
                "' is not a number");
        }
        if (value < min || value > max)
        {
            throw new RfmException(RfmStatus.OUT_OF_RANGE, "device URI '" + uri + "': " + key + " " + value +
                " is outside " + min + ".." + max);
        }
        return value;
    }

    private static long size(final String uri, final String text)
    {
        try
        {
            return Sizes.parseSize(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "device URI '" + uri + "': " + ex.getMessage());
        }
    }
}
