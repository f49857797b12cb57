package io.rfmrt.rfm.sim;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.internal.SharedFiles;
import io.rfmrt.rfm.internal.sim.ControlBlockDescriptor;
import io.rfmrt.rfm.internal.sim.DmaRing;
import io.rfmrt.rfm.internal.sim.NetworkImage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_BRIDGED;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_DMA_AUTO;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_REMOTE;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_LED;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_LOOPBACK;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_TRANSMIT_OFF;

/**
 * Administration of an emulated RFM network: create, attach, inspect, open or close the ring, reset, destroy.
 * Nodes join a network with {@link io.rfmrt.rfm.RfmDevices#open(String)}.
 * <p>
 * Networks live under {@code /dev/shm/rfmrt/<network>/}; the root can be moved with the system property
 * {@value #ROOT_PROPERTY} or the environment variable {@value #ROOT_ENV} (tests use their own). A network is named,
 * never given as a path. The root and each network folder are checked before use: not a symbolic link, owned by this
 * user or root, not writable by every user (see {@link #checkedDir}).
 */
public final class SimNetwork implements AutoCloseable
{
    /** System property naming the folder that holds networks. */
    public static final String ROOT_PROPERTY = "rfmrt.sim.root";
    /** Environment variable naming the folder that holds networks, when the property is unset. */
    public static final String ROOT_ENV = "RFMRT_SIM_ROOT";
    /** Folder that holds networks by default. */
    public static final String DEFAULT_ROOT = "/dev/shm/rfmrt";
    /** Default memory size, 16 MiB. */
    public static final long DEFAULT_MEMORY_SIZE = NetworkImage.DEFAULT_MEMORY_SIZE;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** Files a network owns: what {@link #destroy} removes. */
    private static final Pattern OWN_FILE = Pattern.compile(
        "(\\.?(memory|control|bridge|dma-[0-9]{3}|node-[0-9]{1,3}\\.counters)(\\.tmp-[0-9]+)?)|\\.create\\.lock");

    /** The bridge's media driver folder in a network folder. */
    private static final String BRIDGE_AERON_DIR = HostBridge.AERON_DIR;

    private final NetworkImage image;

    private SimNetwork(final NetworkImage image)
    {
        this.image = image;
    }

    /**
     * @return the folder holding networks.
     */
    public static Path root()
    {
        String root = System.getProperty(ROOT_PROPERTY);
        if (root == null || root.isBlank())
        {
            root = System.getenv(ROOT_ENV);
        }
        return Path.of(root == null || root.isBlank() ? DEFAULT_ROOT : root);
    }

    /**
     * @param network a name such as {@code lab1}; the folder holding networks is {@link #root()}.
     * @return the network's folder (nothing is checked on disk).
     * @throws RfmException BAD_PARAMETER naming the value if it is not a usable name (a path is refused).
     */
    public static Path dir(final String network)
    {
        checkName(network);
        return root().resolve(network);
    }

    /**
     * @param network a network name as given by a user.
     * @throws RfmException BAD_PARAMETER naming the value (control characters shown escaped) if it is not 1-64
     *                      letters, digits, '.', '_' or '-' starting with a letter or digit.
     */
    public static void checkName(final String network)
    {
        if (network != null && network.indexOf('/') >= 0)
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "network name " + quote(network) +
                " is a path; give a name and choose the folder with --root or " + ROOT_ENV);
        }
        if (network == null || !NAME.matcher(network).matches())
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "network name " + quote(network) + " is not 1-64 " +
                "letters, digits, '.', '_' or '-' starting with a letter or digit: " + brokenRule(network));
        }
    }

    private static String brokenRule(final String network)
    {
        if (network == null || network.isEmpty())
        {
            return "it is empty";
        }
        if (network.length() > 64)
        {
            return "it has " + network.length() + " characters";
        }
        final char first = network.charAt(0);
        if (!Character.isLetterOrDigit(first) || first > 0x7f)
        {
            return "it starts with " + quote(String.valueOf(first));
        }
        for (int i = 1; i < network.length(); i++)
        {
            final char c = network.charAt(i);
            if (!(c < 0x80 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-')))
            {
                return "it has " + quote(String.valueOf(c)) + " at " + (i + 1);
            }
        }
        return "it does not match";
    }

    /**
     * @param text text from a user.
     * @return it in single quotes with control characters escaped, so that a message stays one line.
     */
    public static String quote(final String text)
    {
        if (text == null)
        {
            return "null";
        }
        final StringBuilder b = new StringBuilder("'");
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default ->
                {
                    if (c < 0x20 || c == 0x7f)
                    {
                        b.append(String.format("\\x%02x", (int)c));
                    }
                    else
                    {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('\'').toString();
    }

    /**
     * The network's folder after checking the root and the folder on disk: neither may be a symbolic link, belong to
     * another user (root excepted) or be writable by every user.
     *
     * @param network a network name.
     * @param create  create the root and the folder (mode 0770) when missing.
     * @return the folder; it exists when {@code create} is true.
     * @throws RfmException OS_ERROR with one line saying why a folder is refused and how to fix it.
     */
    public static Path checkedDir(final String network, final boolean create)
    {
        final Path dir = dir(network);
        final Path root = dir.getParent();
        if (create && !Files.exists(root, LinkOption.NOFOLLOW_LINKS))
        {
            SharedFiles.createDirectories(root);
        }
        if (Files.exists(root, LinkOption.NOFOLLOW_LINKS))
        {
            SharedFiles.checkFolder(root, "emulator root", "remove it, or make it yours with mode 0770 or " +
                "stricter, or choose another folder with --root or " + ROOT_ENV);
        }
        else
        {
            return dir;
        }
        if (create)
        {
            SharedFiles.createDirectory(dir);
        }
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS))
        {
            SharedFiles.checkFolder(dir, "network folder", "remove it and create the network again");
        }
        return dir;
    }

    /**
     * @param memorySize bytes of memory for a new network.
     * @throws RfmException naming the value if it is not a multiple of 4096 within 4 KiB..1 GiB.
     */
    public static void checkMemorySize(final long memorySize)
    {
        NetworkImage.checkMemorySize(memorySize);
    }

    /**
     * @param network name.
     * @return whether it exists.
     */
    public static boolean exists(final String network)
    {
        return NetworkImage.exists(checkedDir(network, false));
    }

    /**
     * Create a network. Of any number of processes creating the same network at once, exactly one creates it; the
     * others are refused, told that it exists (and its size when it is not the one they asked for).
     *
     * @param network    name.
     * @param memorySize bytes of memory: a multiple of 4096, 4 KiB..1 GiB.
     * @return the network.
     * @throws RfmException if it exists already, the size is bad, or it cannot be made (no space: the folder, bytes
     *                      needed and bytes free); nothing is left behind then.
     */
    public static SimNetwork create(final String network, final long memorySize)
    {
        checkName(network);
        NetworkImage.checkMemorySize(memorySize);
        final Path dir = checkedDir(network, false);
        final boolean folderExisted = Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS);
        final boolean built;
        try
        {
            built = !NetworkImage.exists(dir) && NetworkImage.createIfAbsent(checkedDir(network, true), network,
                memorySize);
        }
        catch (final RuntimeException ex)
        {
            if (!folderExisted)
            {
                removeIfEmpty(dir);
            }
            throw ex;
        }
        if (!built)
        {
            final long existing;
            try (SimNetwork other = attach(network))
            {
                existing = other.memorySize();
            }
            throw new RfmException(RfmStatus.BAD_PARAMETER, "network '" + network + "' already exists in " + dir +
                (existing == memorySize ? "" : String.format(" with %,d bytes of memory, not the %,d asked for",
                existing, memorySize)));
        }
        return new SimNetwork(NetworkImage.attach(dir, network));
    }

    /**
     * Remove a network folder that a refused create made and left empty (another process's files keep it).
     *
     * @param dir the folder.
     */
    public static void removeIfEmpty(final Path dir)
    {
        try
        {
            Files.deleteIfExists(dir);
        }
        catch (final IOException ignore)
        {
            // not empty: someone else's network is being made there
        }
    }

    /**
     * @param network name.
     * @return the existing network.
     * @throws RfmException NOT_FOUND if it does not exist.
     */
    public static SimNetwork attach(final String network)
    {
        return new SimNetwork(NetworkImage.attach(checkedDir(network, false), network));
    }

    /**
     * Remove a network's files, by name: the memory image, the control block, the DMA rings, the creation lock and
     * leftover temporary files of these. Anything else in the folder stays, and so does the folder then.
     * Refused while a live process holds a node, unless forced; forced, it also removes a network whose control block
     * is corrupt.
     *
     * @param network name.
     * @param force   remove even with live nodes (their mappings stay valid until they close) or a corrupt control
     *                block.
     * @return names of the files in the folder that are not the network's and were left with the folder; empty when
     *         the folder is gone.
     * @throws RfmException NOT_FOUND if it does not exist, NODE_IN_USE when live nodes hold it, BAD_LAYOUT when the
     *                      control block is corrupt and not forced.
     */
    public static List<String> destroy(final String network, final boolean force)
    {
        final Path dir = checkedDir(network, false);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS))
        {
            throw new RfmException(RfmStatus.NOT_FOUND, "network '" + network + "' does not exist (no " +
                dir.resolve(ControlBlockDescriptor.CONTROL_FILE) + ")");
        }
        try (SimNetwork net = attach(network))
        {
            if (!force)
            {
                final HostBridge bridge = net.image.bridge();
                if (bridge != null && bridge.bridgeAlive())
                {
                    throw new RfmException(RfmStatus.NODE_IN_USE, "network '" + network + "' is bridged by live " +
                        "process " + bridge.bridgePid() + "; stop the bridge or use --force");
                }
                final List<CardStatus> live = net.cards().stream().filter(CardStatus::ownerAlive).toList();
                if (!live.isEmpty())
                {
                    throw new RfmException(RfmStatus.NODE_IN_USE, "network '" + network + "' has live nodes " +
                        live.stream().map(c -> c.node() + " (pid " + c.ownerPid() + ")").toList() +
                        "; stop them or use --force");
                }
            }
        }
        catch (final RfmException ex)
        {
            final boolean damaged = ex.status() == RfmStatus.BAD_LAYOUT ||
                ex.status() == RfmStatus.NOT_FOUND && hasOwnFiles(dir);
            if (!force || !damaged)
            {
                throw damaged ? new RfmException(ex.status(), ex.getMessage() + "; destroy --force removes it", ex) :
                    ex;
            }
        }
        final List<String> others = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir))
        {
            for (final Path file : files.sorted().toList())
            {
                final String name = file.getFileName().toString();
                if (OWN_FILE.matcher(name).matches() && !Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS))
                {
                    Files.deleteIfExists(file);
                }
                else if (BRIDGE_AERON_DIR.equals(name) && Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS))
                {
                    // the bridge's media driver folder (a bridge removes it when it stops; one that died does not)
                    removeTree(file);
                }
                else
                {
                    others.add(name);
                }
            }
            if (others.isEmpty())
            {
                Files.deleteIfExists(dir);
            }
        }
        catch (final IOException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot remove " + dir + ": " + SharedFiles.describe(ex), ex);
        }
        return others;
    }

    private static void removeTree(final Path dir) throws IOException
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
    }

    private static boolean hasOwnFiles(final Path dir)
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.anyMatch(f -> OWN_FILE.matcher(f.getFileName().toString()).matches());
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /**
     * @return the network's name as given.
     */
    public String name()
    {
        return image.name();
    }

    /**
     * @return the network's folder.
     */
    public Path dir()
    {
        return image.dir();
    }

    /**
     * @return bytes of reflective memory.
     */
    public long memorySize()
    {
        return image.memorySize();
    }

    /**
     * @return creation time, epoch milliseconds.
     */
    public long createdMillis()
    {
        return image.createdMillis();
    }

    /**
     * @return whether the ring is closed.
     */
    public boolean linkUp()
    {
        return image.linkUp();
    }

    /**
     * Open (down) or close (up) the ring. Going down refuses every send with LINK_TEST_FAIL and raises SYNC_LOSS on
     * every attached card.
     *
     * @param up the new state.
     * @return whether it changed.
     */
    public boolean link(final boolean up)
    {
        return image.link(up);
    }

    /**
     * @return times the ring went down.
     */
    public long linkDowns()
    {
        return image.linkDowns();
    }

    /**
     * Network reset: zero memory and counters, close the ring, send RESET to every attached card.
     */
    public void reset()
    {
        image.reset();
    }

    /**
     * @return network resets done.
     */
    public long resets()
    {
        return image.resets();
    }

    /**
     * Fault injection: flip bits in a memory region, as a bad packet would.
     *
     * @param offset start.
     * @param length bytes.
     * @param xor    pattern XORed into each byte (non-zero).
     */
    public void corruptMemory(final long offset, final int length, final byte xor)
    {
        if (offset < 0 || length < 0 || offset + length > image.memorySize())
        {
            throw new RfmException(RfmStatus.OUT_OF_RANGE, String.format(
                "region 0x%x + %d is outside the memory", offset, length));
        }
        for (int i = 0; i < length; i++)
        {
            final int index = (int)offset + i;
            image.memory().putByte(index, (byte)(image.memory().getByte(index) ^ xor));
        }
    }

    /**
     * Fault injection: raise a card-side event (BAD_DATA, ROGUE_PKT, ...) on a node.
     *
     * @param node node id.
     * @param type event type.
     * @param data data word.
     * @return true when it was queued.
     */
    public boolean raiseCardEvent(final int node, final EventType type, final int data)
    {
        return image.deliver(node, type, node, data);
    }

    /**
     * @return every card that is held, or was held and still has counters, in node order.
     */
    public List<CardStatus> cards()
    {
        final List<CardStatus> cards = new ArrayList<>();
        for (int node = 0; node < ControlBlockDescriptor.CARD_COUNT; node++)
        {
            final long pid = image.card(node).ownerPid();
            final boolean present = image.isPresent(node);
            final long[] counters = new long[RfmCounter.SLOT_COUNT];
            boolean any = false;
            for (int slot = 0; slot < counters.length; slot++)
            {
                counters[slot] = image.card(node).counter(slot);
                any |= counters[slot] != 0;
            }
            if (pid == 0 && !present && !any)
            {
                continue;
            }
            final int[] queued = new int[EventType.ID_LIMIT];
            for (final EventType type : EventType.values())
            {
                queued[type.id()] = image.fifo(node, type).size();
            }
            final int flags = image.card(node).flags();
            cards.add(new CardStatus(node, pid, pid != 0 && image.ownerAlive(node), present,
                (flags & FLAG_LOOPBACK) != 0, (flags & FLAG_TRANSMIT_OFF) != 0, (flags & FLAG_LED) != 0,
                (flags & FLAG_DMA_AUTO) != 0, image.card(node).enabledMask(), counters, queued,
                Files.exists(DmaRing.file(image, node)), (flags & FLAG_REMOTE) != 0, (flags & FLAG_BRIDGED) != 0));
        }
        return cards;
    }

    /**
     * @return the ring and every card {@link #cards()} lists, read now (fields read one by one, not as one snapshot).
     */
    public Status status()
    {
        return new Status(image.name(), image.memorySize(), image.linkUp(), image.createdMillis(), image.resets(),
            image.linkDowns(), cards());
    }

    /**
     * @return the host's bridge (its bridge file mapped), or null when the network is not bridged; closed with this.
     */
    public HostBridge bridge()
    {
        return image.bridge();
    }

    /**
     * Unmap.
     */
    @Override
    public void close()
    {
        image.close();
    }

    /**
     * The ring as {@code rfmrt rfm status} shows it.
     *
     * @param name          network name.
     * @param memorySize    bytes of memory.
     * @param linkUp        whether the ring is closed.
     * @param createdMillis creation time, epoch milliseconds.
     * @param resets        network resets done.
     * @param linkDowns     times the ring went down.
     * @param cards         the cards, in node order.
     */
    public record Status(String name, long memorySize, boolean linkUp, long createdMillis, long resets,
        long linkDowns, List<CardStatus> cards)
    {
    }

    /**
     * One card as {@code rfmrt rfm status} shows it.
     *
     * @param node        node id.
     * @param ownerPid    holder's pid, 0 if free.
     * @param ownerAlive  whether the holder runs.
     * @param present     whether the card is on the ring.
     * @param loopback    whether the card receives its own sends.
     * @param transmitOff whether the transmitter is off.
     * @param led         whether the LED is on.
     * @param dmaAuto     whether the DMA engine is in auto mode (else on demand).
     * @param enabledMask enabled event types, bit {@link EventType#id()} each.
     * @param counters    counter slots by {@link RfmCounter#slot}.
     * @param queued      events waiting in each FIFO, by {@link EventType#id()}.
     * @param hasDmaRing  whether the node's DMA file exists.
     * @param remote      whether the card stands in for another host's node (held by this host's bridge).
     * @param bridged     whether the holder logs its writes for the host's bridge.
     */
    public record CardStatus(int node, long ownerPid, boolean ownerAlive, boolean present, boolean loopback,
        boolean transmitOff, boolean led, boolean dmaAuto, int enabledMask, long[] counters, int[] queued,
        boolean hasDmaRing, boolean remote, boolean bridged)
    {
        /**
         * @param counter counter.
         * @param type    type for per-type counters.
         * @return its value.
         */
        public long counter(final RfmCounter counter, final EventType type)
        {
            return counters[counter.slot(type)];
        }

        /**
         * @param type event type.
         * @return events waiting in its FIFO.
         */
        public int queued(final EventType type)
        {
            return queued[type.id()];
        }

        /**
         * @param counter a per-type counter, or a scalar one.
         * @return its sum over every type.
         */
        public long total(final RfmCounter counter)
        {
            if (!counter.perType())
            {
                return counters[counter.id()];
            }
            long sum = 0;
            for (final EventType type : EventType.values())
            {
                sum += counters[counter.slot(type)];
            }
            return sum;
        }
    }
}
