package io.rfmrt.cli.rfm;

import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.Converters;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.RfmWindow;
import io.rfmrt.rfm.bridge.BridgeStatus;
import io.rfmrt.rfm.rfm2g.Rfm2gCard;
import io.rfmrt.rfm.rfm2g.Rfm2gEventStats;
import io.rfmrt.rfm.sim.SimNetwork;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rfmrt rfm}: the diagnostic utility for emulated RFM networks, what the vendor's utility is to a card.
 */
@Command(
    name = "rfm",
    mixinStandardHelpOptions = true,
    description = "Create, inspect and drive emulated RFM networks.",
    subcommands = {
        RfmCommand.Create.class, RfmCommand.Destroy.class, RfmCommand.Status.class, RfmCommand.Poke.class,
        RfmCommand.Peek.class, RfmCommand.Send.class, RfmCommand.Wait.class, RfmCommand.Link.class,
        RfmCommand.Reset.class},
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class RfmCommand
{
    private RfmCommand()
    {
    }

    /** Options every subcommand has. */
    public abstract static class RootCommand implements Callable<Integer>
    {
        @Spec
        public CommandSpec spec;

        /** Sets the folder holding networks for this process when given. */
        @Option(names = "--root", paramLabel = "DIR",
            description = "Folder holding networks (default: RFMRT_SIM_ROOT, else /dev/shm/rfmrt).")
        void root(final String root)
        {
            if (root.isBlank())
            {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--root is empty");
            }
            System.setProperty(SimNetwork.ROOT_PROPERTY, root);
        }

        public PrintWriter out()
        {
            return spec.commandLine().getOut();
        }

    }

    /**
     * Open a device named on the command line: a URI of the wrong form is a usage error (exit 2), found before
     * anything is opened or made; what only opening tells (no such card, a node held) stays an error (exit 1).
     */
    static RfmDevice openDevice(final String uri)
    {
        try
        {
            RfmDevices.checkUri(uri);
        }
        catch (final RfmException ex)
        {
            throw new UsageException(ex.getMessage());
        }
        return RfmDevices.open(uri);
    }

    /** Subcommands that administer one emulated network. */
    abstract static class NetworkCommand extends RootCommand
    {
        @Option(names = "--network", required = true, paramLabel = "NAME", converter = Converters.NetworkName.class,
            description = "Network name (a name, not a path).")
        String network;

        SimNetwork attachExisting()
        {
            return SimNetwork.attach(network);
        }
    }

    /**
     * Subcommands that act as a node: either a node of an emulated network (joined, created if needed, the node id
     * held) or a device opened by URI, e.g. an RFM2g card.
     */
    abstract static class AsNodeCommand extends RootCommand
    {
        @Option(names = "--network", paramLabel = "NAME", converter = Converters.NetworkName.class,
            description = "Network name (a name, not a path); with --node, instead of --device.")
        String network;

        @Option(names = "--node", paramLabel = "N", converter = Converters.Node.class,
            description = "Node id to act as, 0-255; with --network.")
        Integer node;

        @Option(names = "--device", paramLabel = "URI",
            description = "Act as this device instead of --network and --node, e.g. rfm2g:/dev/rfm2g0.")
        String device;

        /** The node id acted as, known once the device is open. */
        int self;

        void checkTarget()
        {
            if (device != null)
            {
                if (network != null || node != null)
                {
                    throw new UsageException("--device is instead of --network and --node, not with them");
                }
                if (device.isBlank())
                {
                    throw new UsageException("--device is empty");
                }
            }
            else if (network == null || node == null)
            {
                throw new UsageException("give either --network NAME --node N or --device URI");
            }
        }

        String where()
        {
            return device != null ? "device " + device : "network '" + network + "'";
        }

        long memorySize()
        {
            if (!SimNetwork.exists(network))
            {
                return SimNetwork.DEFAULT_MEMORY_SIZE;
            }
            try (SimNetwork net = SimNetwork.attach(network))
            {
                return net.memorySize();
            }
        }

        RfmDevice openNode()
        {
            checkTarget();
            final RfmDevice opened = device != null ? openDevice(device) : RfmDevices.open("sim:" + network +
                "?node=" + node);
            self = opened.nodeId();
            final Thread hook = new Thread(opened::close, "rfmrt-release-node");
            Runtime.getRuntime().addShutdownHook(hook);
            return opened;
        }
    }

    /** Access width in bits and its checks. */
    abstract static class MemoryCommand extends AsNodeCommand
    {
        @Option(names = "--offset", required = true, paramLabel = "HEX", converter = Converters.Hex.class,
            description = "Byte offset in reflective memory, hexadecimal.")
        long offset;

        @Option(names = "--width", defaultValue = "32", paramLabel = "BITS",
            description = "Access width: 8, 16, 32 or 64 (default ${DEFAULT-VALUE}).")
        int width;

        int bytes()
        {
            if (width != 8 && width != 16 && width != 32 && width != 64)
            {
                throw new UsageException("--width " + width + " is not 8, 16, 32 or 64");
            }
            return width / 8;
        }

        void checkRange(final long memorySize, final int count)
        {
            final int bytes = bytes();
            if ((offset & (bytes - 1)) != 0)
            {
                throw new UsageException(String.format(
                    "offset 0x%x is not %d-byte aligned for a %d-bit access", offset, bytes, width));
            }
            if (offset < 0 || offset > memorySize - (long)bytes * count)
            {
                throw new UsageException(String.format(
                    "offset 0x%x + %d bytes is outside the %d-byte memory of %s", offset,
                    (long)bytes * count, memorySize, where()));
            }
        }

        /**
         * Open the node after checking the access range: an emulated network is checked before it is joined (a
         * usage error leaves no node behind), a device once it is open (its size is known only then).
         */
        RfmDevice openChecked(final int count)
        {
            checkTarget();
            if (device == null)
            {
                checkRange(memorySize(), count);
                return openNode();
            }
            final RfmDevice opened = openNode();
            try
            {
                checkRange(opened.memorySize(), count);
                return opened;
            }
            catch (final RuntimeException ex)
            {
                opened.close();
                throw ex;
            }
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a network.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
    static final class Create extends NetworkCommand
    {
        @Option(names = "--size", defaultValue = "16M", paramLabel = "BYTES", converter = Converters.Size.class,
            description = "Memory size, e.g. 16M, 64M (default ${DEFAULT-VALUE}).")
        long size;

        @Override
        public Integer call()
        {
            try
            {
                SimNetwork.checkMemorySize(size);
            }
            catch (final RfmException ex)
            {
                throw new UsageException("--size: " + ex.getMessage());
            }
            try (SimNetwork net = SimNetwork.create(network, size))
            {
                out().printf("created network %s: %d bytes of memory in %s%n", network, net.memorySize(), net.dir());
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "destroy", mixinStandardHelpOptions = true, description = "Remove a network's files.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
    static final class Destroy extends NetworkCommand
    {
        @Option(names = "--force", description = "Remove it even while live processes hold nodes.")
        boolean force;

        @Override
        public Integer call()
        {
            final List<String> others = SimNetwork.destroy(network, force);
            if (others.isEmpty())
            {
                out().printf("destroyed network %s%n", network);
            }
            else
            {
                out().printf("destroyed network %s; kept its folder %s, which holds files that are not the " +
                    "network's: %s%n", network, SimNetwork.dir(network),
                    String.join(", ", others.stream().map(SimNetwork::quote).toList()));
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show the ring, its cards (node ids, owner pids, flags) and their counters.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
    static final class Status extends RootCommand
    {
        @Option(names = "--network", paramLabel = "NAME", converter = Converters.NetworkName.class,
            description = "Network name (a name, not a path); or --device.")
        String network;

        @Option(names = "--device", paramLabel = "URI",
            description = "Show this device instead, e.g. rfm2g:/dev/rfm2g0: its config, driver event statistics "
                + "and counters.")
        String device;

        @Option(names = "--json", description = "Print one JSON object instead of the table.")
        boolean json;

        @Override
        public Integer call()
        {
            if ((network == null) == (device == null))
            {
                throw new UsageException("give either --network NAME or --device URI");
            }
            if (device != null)
            {
                if (device.isBlank())
                {
                    throw new UsageException("--device is empty");
                }
                return deviceStatus();
            }
            final PrintWriter out = out();
            try (SimNetwork net = SimNetwork.attach(network))
            {
                if (json)
                {
                    out.println(ChildResult.json(RfmStatusText.StatusJson.of(net.status(), BridgeStatus.of(net))));
                }
                else
                {
                    RfmStatusText.print(net.status(), BridgeStatus.of(net), out);
                }
            }
            return ExitCodes.OK;
        }

        private int deviceStatus()
        {
            final PrintWriter out = out();
            try (RfmDevice opened = openDevice(device))
            {
                if (json)
                {
                    out.println(ChildResult.json(new DeviceJson(device, opened.nodeId(), opened.boardId(),
                        opened.memorySize(), RfmStatusText.counterMap(opened::counter))));
                    return ExitCodes.OK;
                }
                out.printf("device %s  node %d  board 0x%02x  memory %d bytes%n", device, opened.nodeId(),
                    opened.boardId(), opened.memorySize());
                if (opened instanceof Rfm2gCard card)
                {
                    final long threshold = card.dmaThreshold();
                    out.printf("driver %s  product %s  DMA threshold %s  DMA buffer %s%n", card.driverVersion(),
                        card.productName(), threshold == 0xFFFF_FFFFL ? "never" : threshold + " bytes",
                        card.dmaBufferReserved() ? "reserved" : "not reserved (PIO)");
                    out.printf("%-11s  %10s  %6s  %6s  %10s  %6s  %8s  %10s%n", "event", "count", "queued", "size",
                        "max size", "peak", "overflow", "timeout ms");
                    for (final EventType type : EventType.values())
                    {
                        final Rfm2gEventStats stats = card.eventStats(type);
                        out.printf("%-11s  %10d  %6d  %6d  %10d  %6d  %8s  %10s%n", type, stats.eventCount(),
                            stats.eventsQueued(), stats.queueSize(), stats.maxQueueSize(), stats.queuePeak(),
                            stats.overflowed() ? "yes" : "no",
                            stats.timeoutMs() == 0xFFFF_FFFFL ? "inf" : Long.toString(stats.timeoutMs()));
                    }
                }
                // events received: the driver's count; the rest: what this open of the device did (nothing yet)
                RfmStatusText.printCounters(opened, out);
            }
            return ExitCodes.OK;
        }
    }

    /**
     * {@code rfmrt rfm status --device URI --json}.
     *
     * @param device      the URI.
     * @param node        the node id it holds.
     * @param board       its board id.
     * @param memoryBytes its memory size.
     * @param counters    every counter by its label, zero included (per-type: label and type).
     */
    record DeviceJson(String device, int node, int board, long memoryBytes, Map<String, Long> counters)
    {
    }

    /**
     * {@code rfmrt rfm peek --json}: the values read.
     *
     * @param node   the node id read as.
     * @param width  the access width, bits.
     * @param values the values, in address order.
     */
    record PeekJson(int node, int width, List<PeekValue> values)
    {
    }

    /**
     * One value of {@link PeekJson}.
     *
     * @param offset its offset in the memory.
     * @param hex    the value as {@code rfm peek} prints it ({@code 0x} and two digits a byte).
     * @param value  the value, unsigned.
     */
    record PeekValue(long offset, String hex, BigInteger value)
    {
    }

    /**
     * One event of {@code rfmrt rfm wait --json}, a line each.
     *
     * @param type       its type.
     * @param sourceNode the node that sent it.
     * @param data       its data word, unsigned.
     */
    record EventJson(String type, int sourceNode, long data)
    {
    }

    @Command(name = "poke", mixinStandardHelpOptions = true, description = "Write one value as a node.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
    static final class Poke extends MemoryCommand
    {
        @Option(names = "--value", required = true, paramLabel = "HEX", converter = Converters.Hex.class,
            description = "Value, hexadecimal.")
        long value;

        @Override
        public Integer call()
        {
            final int bytes = bytes();
            if (bytes < 8 && (value >>> (bytes * 8)) != 0)
            {
                throw new UsageException(String.format("--value 0x%x does not fit %d bits", value, width));
            }
            try (RfmDevice opened = openChecked(1))
            {
                final RfmWindow w = opened.window();
                switch (bytes)
                {
                    case 1 -> w.putByte(offset, (byte)value);
                    case 2 -> w.putShort(offset, (short)value);
                    case 4 -> w.putIntVolatile(offset, (int)value);
                    default -> w.putLongVolatile(offset, value);
                }
                out().printf("node %d wrote 0x%0" + bytes * 2 + "x at 0x%08x%n", self, value, offset);
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "peek", mixinStandardHelpOptions = true, description = "Read values as a node.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
    static final class Peek extends MemoryCommand
    {
        @Option(names = "--count", defaultValue = "1", paramLabel = "K",
            description = "Consecutive values to read (default ${DEFAULT-VALUE}).")
        int count;

        @Option(names = "--json", description = "Print one JSON object instead of the lines.")
        boolean json;

        @Override
        public Integer call()
        {
            if (count < 1)
            {
                throw new UsageException("--count " + count + " is not at least 1");
            }
            final int bytes = bytes();
            try (RfmDevice opened = openChecked(count))
            {
                final RfmWindow w = opened.window();
                final List<PeekValue> values = new ArrayList<>();
                for (int i = 0; i < count; i++)
                {
                    final long at = offset + (long)i * bytes;
                    final long v = switch (bytes)
                    {
                        case 1 -> w.getByte(at) & 0xFFL;
                        case 2 -> w.getShort(at) & 0xFFFFL;
                        case 4 -> w.getIntVolatile(at) & 0xFFFF_FFFFL;
                        default -> w.getLongVolatile(at);
                    };
                    final String hex = String.format("0x%0" + bytes * 2 + "x", v);
                    if (json)
                    {
                        values.add(new PeekValue(at, hex, new BigInteger(Long.toUnsignedString(v))));
                    }
                    else
                    {
                        out().printf("0x%08x: %s%n", at, hex);
                    }
                }
                if (json)
                {
                    out().println(ChildResult.json(new PeekJson(self, width, values)));
                }
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "send", mixinStandardHelpOptions = true, description = "Send a network event as a node.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
    static final class Send extends AsNodeCommand
    {
        @Option(names = "--to", required = true, paramLabel = "M|all", converter = Converters.Destination.class,
            description = "Destination node id, or all.")
        int to;

        @Option(names = "--type", required = true, paramLabel = "TYPE", converter = Converters.Event.class,
            description = "INTR1, INTR2, INTR3, INTR4 or RESET.")
        EventType type;

        @Option(names = "--data", defaultValue = "0", paramLabel = "HEX", converter = Converters.Hex.class,
            description = "32-bit data word, hexadecimal (default ${DEFAULT-VALUE}).")
        long data;

        @Override
        public Integer call()
        {
            if (!type.sendable())
            {
                throw new UsageException("--type " + type + " cannot be sent (INTR1..INTR4 or RESET)");
            }
            if ((data >>> 32) != 0)
            {
                throw new UsageException(String.format("--data 0x%x does not fit 32 bits", data));
            }
            checkTarget();
            if (device == null && to == node)
            {
                throw new RfmException(RfmStatus.NODE_ID_SELF, "node " + node + " cannot send to itself");
            }
            try (RfmDevice opened = openNode())
            {
                if (to == self)
                {
                    throw new RfmException(RfmStatus.NODE_ID_SELF, "node " + self + " cannot send to itself");
                }
                final boolean present = to == RfmDevice.ALL_NODES || device != null || isPresent(to);
                final RfmStatus status = opened.sendEvent(to, type, (int)data);
                if (status != RfmStatus.SUCCESS)
                {
                    throw new RfmException(status, "send refused: " + status +
                        (status == RfmStatus.LINK_TEST_FAIL ? " (the ring is open: rfmrt rfm link --up)" : ""));
                }
                out().printf("node %d sent %s to %s data 0x%08x%s%n", self, type,
                    to == RfmDevice.ALL_NODES ? "all" : "node " + to, data,
                    present ? "" : " (node " + to + " is not on the ring: nobody received it)");
            }
            return ExitCodes.OK;
        }

        private boolean isPresent(final int other)
        {
            try (SimNetwork net = SimNetwork.attach(network))
            {
                return net.cards().stream().anyMatch(c -> c.node() == other && c.present());
            }
        }
    }

    @Command(name = "wait", mixinStandardHelpOptions = true,
        description = "Enable an event type as a node of an existing network (or a device) and print each event " +
            "that arrives.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE, ExitCodes.LIST_TIMEOUT})
    static final class Wait extends AsNodeCommand
    {
        @Option(names = "--type", required = true, paramLabel = "TYPE", converter = Converters.Event.class,
            description = "Event type, e.g. INTR1.")
        EventType type;

        @Option(names = "--timeout", defaultValue = "inf", paramLabel = "DURATION",
            converter = Converters.Duration.class,
            description = "Give up after this long without an event (exit 3), e.g. 5s, 500ms, 0 to look once; the " +
                "message says it exactly, 1ns as 1 ns (default: wait forever).")
        long timeoutNanos;

        @Option(names = "--count", defaultValue = "1", paramLabel = "K",
            description = "Events to wait for (default ${DEFAULT-VALUE}).")
        int count;

        @Option(names = "--json", description = "Print each event as one JSON object on its own line (JSON lines).")
        boolean json;

        @Override
        public Integer call()
        {
            if (count < 1)
            {
                throw new UsageException("--count " + count + " is not at least 1");
            }
            checkTarget();
            if (device == null && !SimNetwork.exists(network))
            {
                // an event can only come from a node of an existing network: waiting makes nothing
                throw new RfmException(RfmStatus.NOT_FOUND, "network '" + network + "' does not exist; rfm wait " +
                    "joins a network, it does not create one (rfm create, or start its bridge)");
            }
            try (RfmDevice opened = openNode())
            {
                opened.enableEvent(type);
                final EventInfo info = new EventInfo();
                for (int i = 0; i < count; i++)
                {
                    final RfmStatus status = opened.awaitEvent(type, timeoutNanos, info);
                    if (status == RfmStatus.TIMED_OUT)
                    {
                        spec.commandLine().getErr().printf("rfmrt: no %s event for node %d within %s (%d of %d)%n",
                            type, self, describe(timeoutNanos), i, count);
                        return ExitCodes.TIMEOUT;
                    }
                    if (status != RfmStatus.SUCCESS)
                    {
                        throw new RfmException(status, "wait for " + type + " ended: " + status);
                    }
                    out().println(json ? ChildResult.json(new EventJson(info.type().name(), info.sourceNode(),
                        Integer.toUnsignedLong(info.data()))) : info.toString());
                    out().flush();
                }
            }
            return ExitCodes.OK;
        }

        /** The timeout as given: in the largest unit that says it exactly. */
        static String describe(final long nanos)
        {
            return nanos % 1_000_000_000L == 0 ? nanos / 1_000_000_000L + " s" :
                nanos % 1_000_000L == 0 ? nanos / 1_000_000L + " ms" :
                nanos % 1_000L == 0 ? nanos / 1_000L + " us" : nanos + " ns";
        }
    }

    @Command(name = "link", mixinStandardHelpOptions = true,
        description = "Open (down) or close (up) the ring; going down raises SYNC_LOSS on every card.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
    static final class Link extends NetworkCommand
    {
        @ArgGroup(exclusive = true, multiplicity = "1")
        State state;

        static final class State
        {
            @Option(names = "--down", required = true, description = "Open the ring.")
            boolean down;

            @Option(names = "--up", required = true, description = "Close the ring.")
            boolean up;
        }

        @Override
        public Integer call()
        {
            try (SimNetwork net = attachExisting())
            {
                final boolean changed = net.link(state.up);
                out().printf("network %s link %s%s%n", network, state.up ? "up" : "down", changed ? "" :
                    " (already)");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "reset", mixinStandardHelpOptions = true,
        description = "Network reset: zero memory and counters, close the ring, send RESET to every card.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
    static final class Reset extends NetworkCommand
    {
        @Override
        public Integer call()
        {
            try (SimNetwork net = attachExisting())
            {
                net.reset();
                out().printf("network %s reset%n", network);
            }
            return ExitCodes.OK;
        }
    }
}
