package io.rfmrt.rfm.sim;

import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.RfmWindow;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.ServiceLoader;

/**
 * What the emulator asks of a host's bridge, the seam between an emulated network and the bridge that joins it to
 * other hosts (the rfm-bridge module implements it; the emulator knows no bridge class). A network is bridged when its
 * folder holds a {@link #FILE bridge file}; a process attaching to it finds the implementation with a
 * {@link ServiceLoader} ({@link Provider}) and then:
 * <pre>
 *   node window store ---> observer(node).onWrite(offset, length)  (logged for the bridge, in each writer's order)
 *   event to a node of
 *   another host       ---> appendEvent(...)                       (after the writes logged before it)
 *   ring closed?       ---> leaseValid(now)                        (a bridge that died leaves the host cut off)
 * </pre>
 * A bridged network attached where no implementation is on the class path is refused: its writes would not reach
 * the other hosts.
 * <p>
 * Thread safety: {@link #observer} and {@link #appendEvent} from any thread of any process on the host,
 * allocation-free; the rest from the thread that owns the network's mapping.
 */
public interface HostBridge extends AutoCloseable
{
    /** The bridge file's name in a network folder: its presence makes the network bridged. */
    String FILE = "bridge";
    /** The bridge's media driver folder in a network folder (the bridge removes it when it stops). */
    String AERON_DIR = "bridge-aeron";

    /**
     * @param node the writing node.
     * @return an observer that logs that node's window stores for the bridge.
     */
    RfmWindow.WriteObserver observer(int node);

    /**
     * Log an event for the bridge to deliver after the writes logged before it.
     *
     * @param source    the sending node.
     * @param target    the receiving node, or the broadcast id.
     * @param typeId    {@code EventType.id()}.
     * @param data      the event's data word.
     * @param dmaOffset the frame's offset for DMA on arrival, or -1.
     * @param dmaLength its length.
     * @param sendNanos the sender's {@code System.nanoTime()}.
     * @return false when the log cannot take it now (full, or overflowed writes not yet sent again; counted).
     */
    boolean appendEvent(int source, int target, int typeId, int data, long dmaOffset, int dmaLength, long sendNanos);

    /**
     * @param nowNanos {@code System.nanoTime()} now.
     * @return whether a bridge renewed its lease recently enough.
     */
    boolean leaseValid(long nowNanos);

    /**
     * @return whether a live process holds the bridge claim.
     */
    boolean bridgeAlive();

    /**
     * @return pid of the running (or last) bridge, 0 when none claimed the file.
     */
    long bridgePid();

    /**
     * @param node       a node whose card stands in for another host's node.
     * @param holderPid  the pid holding the stand-in card (the bridge).
     * @return who holds the node on its own host, for a message; null when the bridge does not know.
     */
    String describeRemote(int node, long holderPid);

    /**
     * Unmap.
     */
    @Override
    void close();

    /**
     * @param networkDir a network folder.
     * @return whether the network is bridged (its folder holds a bridge file).
     */
    static boolean present(final Path networkDir)
    {
        return Files.isRegularFile(networkDir.resolve(FILE), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Attach to a network's bridge file through the implementation on the class path.
     *
     * @param networkDir the network folder.
     * @param network    its name, for messages.
     * @param memory     the network's memory image.
     * @return the attached bridge, or null when the network is not bridged.
     * @throws RfmException NOT_SUPPORTED naming the network when it is bridged and no implementation is on the class
     *                      path; what the implementation throws on a bad bridge file.
     */
    static HostBridge attachIfPresent(final Path networkDir, final String network, final UnsafeBuffer memory)
    {
        if (!present(networkDir))
        {
            return null;
        }
        final Provider provider = Holder.PROVIDER;
        if (provider == null)
        {
            throw new RfmException(RfmStatus.NOT_SUPPORTED, "network '" + network + "' is bridged (" +
                networkDir.resolve(FILE) + ") and this program has no bridge (the rfm-bridge module) on its class " +
                "path: its writes would not reach the other hosts");
        }
        return provider.attachIfPresent(networkDir, network, memory);
    }

    /**
     * Makes the {@link HostBridge} of a bridged network; registered as a service
     * ({@code META-INF/services/io.rfmrt.rfm.sim.HostBridge$Provider}) by the bridge module.
     */
    interface Provider
    {
        /**
         * @param networkDir the network folder.
         * @param network    its name, for messages.
         * @param memory     the network's memory image.
         * @return the attached bridge, or null when the network is not bridged.
         * @throws RfmException BAD_LAYOUT naming the file when it is foreign, corrupt or of another size.
         */
        HostBridge attachIfPresent(Path networkDir, String network, UnsafeBuffer memory);
    }

    /** The provider found on the class path, looked up once. */
    final class Holder
    {
        static final Provider PROVIDER = find();

        private Holder()
        {
        }

        private static Provider find()
        {
            final Iterator<Provider> providers = ServiceLoader.load(Provider.class, HostBridge.class.getClassLoader())
                .iterator();
            return providers.hasNext() ? providers.next() : null;
        }
    }
}
