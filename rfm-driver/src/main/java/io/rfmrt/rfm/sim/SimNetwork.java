package io.rfmrt.rfm.sim;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.internal.sim.ControlBlockDescriptor;
import io.rfmrt.rfm.internal.sim.DmaRing;
import io.rfmrt.rfm.internal.sim.NetworkImage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Administration of an emulated RFM network: create, attach, inspect, open or close the ring, reset, destroy.
 * Nodes join a network with {@link io.rfmrt.rfm.RfmDevices#open(String)}.
 * <p>
 * Networks live under {@code /dev/shm/rfmrt/<network>/}; the root can be moved with the system property
 * {@value #ROOT_PROPERTY} or the environment variable {@value #ROOT_ENV} (tests use their own).
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
     * @param network a name ({@code lab1}) or an absolute folder ({@code /dev/shm/rfmrt/lab1}).
     * @return the network's folder.
     * @throws RfmException naming the value if the name is not usable.
     */
    public static Path dir(final String network)
    {
        if (network != null && network.startsWith("/"))
        {
            final Path path = Path.of(network).normalize();
            if (path.getFileName() == null || !NAME.matcher(path.getFileName().toString()).matches())
            {
                throw new RfmException(RfmStatus.BAD_PARAMETER, "network path '" + network + "' has no usable name");
            }
            return path;
        }
        if (network == null || !NAME.matcher(network).matches())
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "network name '" + network +
                "' is not 1-64 letters, digits, '.', '_' or '-'");
        }
        return root().resolve(network);
    }

    /**
     * @param network name or folder.
     * @return whether it exists.
     */
    public static boolean exists(final String network)
    {
        return NetworkImage.exists(dir(network));
    }

    /**
     * Create a network.
     *
     * @param network    name or folder.
     * @param memorySize bytes of memory: a multiple of 4096, 4 KiB..1 GiB.
     * @return the network.
     * @throws RfmException if it exists already or the size is bad.
     */
    public static SimNetwork create(final String network, final long memorySize)
    {
        final Path dir = dir(network);
        NetworkImage.checkMemorySize(memorySize);
        if (NetworkImage.exists(dir))
        {
            throw new RfmException(RfmStatus.BAD_PARAMETER, "network '" + network + "' already exists in " + dir);
        }
        return new SimNetwork(NetworkImage.createOrAttach(dir, network, memorySize));
    }

    /**
     * @param network name or folder.
     * @return the existing network.
     * @throws RfmException NOT_FOUND if it does not exist.
     */
    public static SimNetwork attach(final String network)
    {
        return new SimNetwork(NetworkImage.attach(dir(network), network));
    }

    /**
     * Remove a network's files. Refused while a live process holds a node, unless forced.
     *
     * @param network name or folder.
     * @param force   remove even with live nodes (their mappings stay valid until they close).
     * @throws RfmException NOT_FOUND if it does not exist, NODE_IN_USE when live nodes hold it.
     */
    public static void destroy(final String network, final boolean force)
    {
        final Path dir = dir(network);
        try (SimNetwork net = attach(network))
        {
            if (!force)
            {
                final List<CardStatus> live = net.cards().stream().filter(CardStatus::ownerAlive).toList();
                if (!live.isEmpty())
                {
                    throw new RfmException(RfmStatus.NODE_IN_USE, "network '" + network + "' has live nodes " +
                        live.stream().map(c -> c.node() + " (pid " + c.ownerPid() + ")").toList() +
                        "; stop them or use --force");
                }
            }
        }
        try (Stream<Path> files = Files.list(dir))
        {
            for (final Path file : files.toList())
            {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        }
        catch (final IOException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot remove " + dir + ": " + ex.getMessage(), ex);
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
            final long pid = image.ownerPid(node);
            final boolean present = image.isPresent(node);
            final long[] counters = new long[RfmCounter.SLOT_COUNT];
            boolean any = false;
            for (int slot = 0; slot < counters.length; slot++)
            {
                counters[slot] = image.counter(node, slot);
                any |= counters[slot] != 0;
            }
            if (pid == 0 && !present && !any)
            {
                continue;
            }
            final int[] queued = new int[EventType.COUNT];
            for (final EventType type : EventType.values())
            {
                queued[type.ordinal()] = image.queued(node, type);
            }
            cards.add(new CardStatus(node, pid, pid != 0 && image.ownerAlive(node), present, image.flags(node),
                image.enabledMask(node), counters, queued, java.nio.file.Files.exists(DmaRing.file(image, node))));
        }
        return cards;
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
     * One card as {@code rfmrt rfm status} shows it.
     *
     * @param node        node id.
     * @param ownerPid    holder's pid, 0 if free.
     * @param ownerAlive  whether the holder runs.
     * @param present     whether the card is on the ring.
     * @param flags       raw flag bits.
     * @param enabledMask enabled event types.
     * @param counters    counter slots by {@link RfmCounter#slot}.
     * @param queued      events waiting in each FIFO.
     * @param hasDmaRing  whether the node's DMA file exists.
     */
    public record CardStatus(int node, long ownerPid, boolean ownerAlive, boolean present, int flags,
        int enabledMask, long[] counters, int[] queued, boolean hasDmaRing)
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

        /**
         * @return flag names, e.g. {@code loopback,dma-auto}.
         */
        public String flagNames()
        {
            final List<String> names = new ArrayList<>();
            if ((flags & ControlBlockDescriptor.FLAG_LOOPBACK) != 0)
            {
                names.add("loopback");
            }
            names.add((flags & ControlBlockDescriptor.FLAG_TRANSMIT_OFF) != 0 ? "tx-off" : "tx-on");
            if ((flags & ControlBlockDescriptor.FLAG_LED) != 0)
            {
                names.add("led");
            }
            names.add((flags & ControlBlockDescriptor.FLAG_DMA_AUTO) != 0 ? "dma-auto" : "dma-on-demand");
            return String.join(",", names);
        }
    }
}
