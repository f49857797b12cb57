package io.rfmrt.cli;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
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
     * @param out    where the table goes.
     */
    static void print(final SimNetwork.Status status, final PrintWriter out)
    {
        final List<SimNetwork.CardStatus> cards = status.cards();
        out.printf("network %s  memory %d bytes  link %s  created %s  resets %d  link downs %d%n",
            status.name(), status.memorySize(), status.linkUp() ? "up" : "DOWN",
            Instant.ofEpochMilli(status.createdMillis()), status.resets(), status.linkDowns());
        out.printf("%4s  %8s  %-5s  %-24s  %-26s  %8s  %8s  %8s  %8s%n", "node", "pid", "state", "flags",
            "enabled", "sent", "received", "overflow", "dma");
        for (final SimNetwork.CardStatus card : cards)
        {
            final String state = card.ownerPid() == 0 ? "free" : card.ownerAlive() ? "live" : "dead";
            out.printf("%4d  %8d  %-5s  %-24s  %-26s  %8d  %8d  %8d  %8d%n", card.node(), card.ownerPid(),
                state, flagNames(card), enabled(card.enabledMask()), card.total(RfmCounter.EVENTS_SENT),
                card.total(RfmCounter.EVENTS_RECEIVED), card.total(RfmCounter.FIFO_OVERFLOWS),
                card.total(RfmCounter.DMA_COMPLETED));
        }
        if (cards.isEmpty())
        {
            out.println("(no cards)");
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
