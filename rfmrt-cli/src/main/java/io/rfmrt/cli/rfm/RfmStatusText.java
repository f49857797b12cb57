package io.rfmrt.cli.rfm;

import io.rfmrt.cli.bridge.BridgeCommand;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeStatus;
import io.rfmrt.rfm.sim.SimNetwork;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The text of {@code rfmrt rfm status}: an emulated network's ring and cards from {@link SimNetwork.Status}, and
 * the counter line of a card or device.
 */
final class RfmStatusText
{
    private RfmStatusText()
    {
    }

    /**
     * @param status the network as read.
     * @param bridge the host's bridge as read, or null when the network is not bridged.
     * @param out    where the table goes.
     */
    static void print(final SimNetwork.Status status, final BridgeStatus bridge, final PrintWriter out)
    {
        final List<SimNetwork.CardStatus> cards = status.cards();
        out.printf("network %s  memory %d bytes  link %s  created %s  resets %d  link downs %d%n",
            status.name(), status.memorySize(), status.linkUp() ? "up" : "DOWN",
            Instant.ofEpochMilli(status.createdMillis()), status.resets(), status.linkDowns());
        out.printf("%4s  %8s  %-5s  %-24s  %-26s  %8s  %8s  %8s  %8s%n", "node", "pid", "state", "flags",
            "enabled", "sent", "received", "overflow", "dma");
        for (final SimNetwork.CardStatus card : cards)
        {
            final String state = state(card);
            out.printf("%4d  %8d  %-5s  %-24s  %-26s  %8d  %8d  %8d  %8d%n", card.node(), card.ownerPid(),
                state, flagNames(card), enabled(card.enabledMask()), card.total(RfmCounter.EVENTS_SENT),
                card.total(RfmCounter.EVENTS_RECEIVED), card.total(RfmCounter.FIFO_OVERFLOWS),
                card.total(RfmCounter.DMA_COMPLETED));
        }
        if (cards.isEmpty())
        {
            out.println("(no cards)");
        }
        if (bridge != null)
        {
            printBridge(bridge, out);
        }
        for (final SimNetwork.CardStatus card : cards)
        {
            final List<String> counters = counters(card::counter);
            final List<String> queued = new ArrayList<>();
            for (final EventType type : EventType.values())
            {
                if (card.queued(type) != 0)
                {
                    queued.add(type + "=" + card.queued(type));
                }
            }
            out.printf("node %d counters: %s%s%n", card.node(), counters.isEmpty() ? "all zero" :
                String.join(", ", counters), queued.isEmpty() ? "" : "; queued: " + String.join(", ", queued));
        }
    }

    /**
     * @param bridge the host's bridge as its file shows it.
     * @param out    where the lines go.
     */
    static void printBridge(final BridgeStatus bridge, final PrintWriter out)
    {
        final long now = System.currentTimeMillis();
        out.printf("bridge host %d (%s)  pid %d %s  state %s  lease %s  channel %s  started %s%n", bridge.hostId(),
            bridge.hostName(), bridge.pid(), bridge.pid() == 0 ? "never ran" : bridge.alive() ? "live" : "dead",
            bridge.state(), bridge.leaseValid() ? "valid" : "EXPIRED (link down)", bridge.channel(),
            bridge.startedMillis() == 0 ? "-" : Instant.ofEpochMilli(bridge.startedMillis()));
        out.printf("%4s  %-16s  %-22s  %-10s  %-10s  %8s  %12s  %10s  %12s  %7s  %6s%n", "peer", "name", "endpoint",
            "state", "its view", "pid", "last heard", "messages", "bytes", "resyncs", "losses");
        for (final BridgeStatus.PeerStatus peer : bridge.peers())
        {
            out.printf("%4d  %-16s  %-22s  %-10s  %-10s  %8d  %12s  %10d  %12d  %7d  %6d%n", peer.hostId(),
                peer.name().isEmpty() ? "-" : peer.name(), peer.endpoint(), peer.state(), peer.viewOfUs(),
                peer.pid(), ago(now, peer.lastHeard()), peer.messages(), peer.bytes(), peer.resyncs(), peer.losses());
        }
        if (!bridge.remoteNodes().isEmpty())
        {
            out.printf("%11s  %-22s  %8s  %12s%n", "remote node", "host", "pid", "last heard");
            for (final BridgeStatus.RemoteNode node : bridge.remoteNodes())
            {
                out.printf("%11d  %-22s  %8d  %12s%n", node.node(), node.hostId() + (node.hostName().isEmpty() ? "" :
                    " (" + node.hostName() + ")"), node.pid(), ago(now, node.lastHeard()));
            }
        }
        final List<String> counters = new ArrayList<>();
        for (final BridgeCounter counter : BridgeCounter.values())
        {
            if (bridge.counter(counter) != 0)
            {
                counters.add(counter.label() + "=" + bridge.counter(counter));
            }
        }
        out.printf("bridge counters: %s; log %d of %d bytes queued%s%n", counters.isEmpty() ? "all zero" :
            String.join(", ", counters), bridge.logQueued(), bridge.logCapacity(),
            bridge.overflowPending() ? ", OVERFLOW being resent" : "");
        final List<BridgeStatus.Record> records = bridge.records();
        final int from = Math.max(0, records.size() - RECORDS_SHOWN);
        if (!records.isEmpty())
        {
            out.printf("bridge records (last %d of %d):%n", records.size() - from, records.size());
        }
        for (final BridgeStatus.Record record : records.subList(from, records.size()))
        {
            final String name = bridge.peers().stream().filter(p -> p.hostId() == record.peerHostId())
                .map(BridgeStatus.PeerStatus::name).findFirst().orElse("");
            out.printf("  %s  %s%n", Instant.ofEpochMilli(record.millis()), BridgeCommand.describe(record.kind(),
                record.peerHostId(), name, record.value(), record.value2()));
        }
    }

    /**
     * {@code rfmrt rfm status --json}: the network as read, one object.
     *
     * @param network       its name.
     * @param memoryBytes   its memory size.
     * @param linkUp        whether the ring is closed.
     * @param created       when it was made (ISO-8601).
     * @param resets        resets so far.
     * @param linkDowns     link downs so far.
     * @param cards         its cards, by node.
     * @param bridge        the host's bridge, null when the network is not bridged.
     */
    record StatusJson(String network, long memoryBytes, boolean linkUp, String created, long resets, long linkDowns,
        List<CardJson> cards, BridgeJson bridge)
    {
        static StatusJson of(final SimNetwork.Status status, final BridgeStatus bridge)
        {
            final List<CardJson> cards = new ArrayList<>();
            for (final SimNetwork.CardStatus card : status.cards())
            {
                final Map<String, Long> queued = new LinkedHashMap<>();
                for (final EventType type : EventType.values())
                {
                    queued.put(type.name(), (long)card.queued(type));
                }
                cards.add(new CardJson(card.node(), card.ownerPid(), state(card), List.of(flagNames(card).split(",")),
                    enabled(card.enabledMask()).equals("-") ? List.of() :
                        List.of(enabled(card.enabledMask()).split(",")),
                    counterMap(card::counter), queued));
            }
            return new StatusJson(status.name(), status.memorySize(), status.linkUp(),
                Instant.ofEpochMilli(status.createdMillis()).toString(), status.resets(), status.linkDowns(), cards,
                bridge == null ? null : BridgeJson.of(bridge));
        }
    }

    /**
     * One card of {@link StatusJson}.
     *
     * @param node     its node id.
     * @param pid      the process holding it, 0 when free.
     * @param state    free, live, dead or remote.
     * @param flags    loopback, tx-on/tx-off, led, dma-auto/dma-on-demand, remote or bridged.
     * @param enabled  the event types it takes.
     * @param counters every counter by its label (a per-type counter: label and type), zero included.
     * @param queued   events queued per type.
     */
    record CardJson(int node, long pid, String state, List<String> flags, List<String> enabled,
        Map<String, Long> counters, Map<String, Long> queued)
    {
    }

    /**
     * The bridge of {@link StatusJson}: its file's figures, peers and remote nodes as the bridge wrote them.
     *
     * @param hostId          this host's id.
     * @param hostName        its name.
     * @param pid             the bridge's process, 0 when it never ran.
     * @param alive           whether that process runs.
     * @param state           the bridge's state.
     * @param leaseValid      whether its lease holds (else the link is down).
     * @param channel         the Aeron channel it listens on.
     * @param started         when it started (ISO-8601), null when it never ran.
     * @param peers           the configured peers.
     * @param remoteNodes     the nodes of other hosts this host holds cards for.
     * @param counters        every bridge counter by its label, zero included.
     * @param logQueued       bytes of the outbound log not yet taken.
     * @param logCapacity     bytes of the outbound log.
     * @param overflowPending whether words marked by writers are being resent.
     */
    record BridgeJson(int hostId, String hostName, long pid, boolean alive, String state, boolean leaseValid,
        String channel, String started, List<BridgeStatus.PeerStatus> peers, List<BridgeStatus.RemoteNode> remoteNodes,
        Map<String, Long> counters, long logQueued, int logCapacity, boolean overflowPending)
    {
        static BridgeJson of(final BridgeStatus bridge)
        {
            final Map<String, Long> counters = new LinkedHashMap<>();
            for (final BridgeCounter counter : BridgeCounter.values())
            {
                counters.put(counter.label(), bridge.counter(counter));
            }
            return new BridgeJson(bridge.hostId(), bridge.hostName(), bridge.pid(), bridge.alive(),
                bridge.state().toString(), bridge.leaseValid(), bridge.channel(), bridge.startedMillis() == 0 ? null :
                Instant.ofEpochMilli(bridge.startedMillis()).toString(), bridge.peers(), bridge.remoteNodes(),
                counters, bridge.logQueued(), bridge.logCapacity(), bridge.overflowPending());
        }
    }

    private static String state(final SimNetwork.CardStatus card)
    {
        return card.remote() ? "remote" : card.ownerPid() == 0 ? "free" : card.ownerAlive() ? "live" : "dead";
    }

    /**
     * @param value a card's or a device's counters.
     * @return every counter by its label (a per-type counter once per type: label and type), zero included.
     */
    static Map<String, Long> counterMap(final BiFunction<RfmCounter, EventType, Long> value)
    {
        final Map<String, Long> counters = new LinkedHashMap<>();
        for (final RfmCounter counter : RfmCounter.values())
        {
            if (counter.perType())
            {
                for (final EventType type : EventType.values())
                {
                    counters.put(counter.label() + " " + type, value.apply(counter, type));
                }
            }
            else
            {
                counters.put(counter.label(), value.apply(counter, null));
            }
        }
        return counters;
    }

    private static final int RECORDS_SHOWN = 12;

    private static String ago(final long now, final long millis)
    {
        return millis == 0 ? "never" : Math.max(0, now - millis) + " ms ago";
    }

    /**
     * @param device an open device.
     * @param out    where the line goes.
     */
    static void printCounters(final RfmDevice device, final PrintWriter out)
    {
        final List<String> counters = counters(device::counter);
        out.printf("node %d counters: %s%n", device.nodeId(), counters.isEmpty() ? "all zero" :
            String.join(", ", counters));
    }

    /**
     * @param card a card.
     * @return its flags as names, e.g. {@code loopback,tx-on,dma-auto}.
     */
    static String flagNames(final SimNetwork.CardStatus card)
    {
        final List<String> names = new ArrayList<>();
        if (card.loopback())
        {
            names.add("loopback");
        }
        names.add(card.transmitOff() ? "tx-off" : "tx-on");
        if (card.led())
        {
            names.add("led");
        }
        names.add(card.dmaAuto() ? "dma-auto" : "dma-on-demand");
        if (card.remote())
        {
            names.add("remote");
        }
        else if (card.bridged())
        {
            names.add("bridged");
        }
        return String.join(",", names);
    }

    /**
     * @param mask an enabled event mask.
     * @return the enabled types' names, or {@code -}.
     */
    static String enabled(final int mask)
    {
        final List<String> names = new ArrayList<>();
        for (final EventType type : EventType.values())
        {
            if ((mask & type.mask()) != 0)
            {
                names.add(type.name());
            }
        }
        return names.isEmpty() ? "-" : String.join(",", names);
    }

    private static List<String> counters(final BiFunction<RfmCounter, EventType, Long> value)
    {
        final List<String> counters = new ArrayList<>();
        for (final RfmCounter counter : RfmCounter.values())
        {
            if (counter.perType())
            {
                for (final EventType type : EventType.values())
                {
                    final long v = value.apply(counter, type);
                    if (v != 0)
                    {
                        counters.add(counter.label() + " " + type + "=" + v);
                    }
                }
            }
            else if (value.apply(counter, null) != 0)
            {
                counters.add(counter.label() + "=" + value.apply(counter, null));
            }
        }
        return counters;
    }
}
