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
import java.util.List;
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
            final String state = card.remote() ? "remote" : card.ownerPid() == 0 ? "free" : card.ownerAlive() ? "live" :
                "dead";
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
