package io.rfmrt.rfm;

import java.util.concurrent.TimeUnit;

/**
 * A node in a child JVM, for the cross-process tests.
 * <pre>
 *   send NETWORK NODE TO TYPE DATA      send one event, print "sent"
 *   hold NETWORK NODE                   hold the node, print "ready", wait to be killed
 *   ping NETWORK NODE PEER COUNT        COUNT times: write i at (i % 1024) * 8, send INTR1 with data i,
 *                                       wait for INTR2 from the peer; print "done"
 * </pre>
 */
public final class TestNode
{
    private TestNode()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String uri = "sim:" + args[1] + "?node=" + args[2] + "&size=1M";
        switch (args[0])
        {
            case "send" ->
            {
                try (RfmDevice device = RfmDevices.open(uri))
                {
                    final RfmStatus status = device.sendEvent(Integer.parseInt(args[3]), EventType.parse(args[4]),
                        (int)Long.parseLong(args[5], 16));
                    System.out.println(status == RfmStatus.SUCCESS ? "sent" : status.name());
                }
            }
            case "hold" ->
            {
                final RfmDevice device = RfmDevices.open(uri);
                System.out.println("ready");
                System.out.flush();
                Thread.sleep(TimeUnit.MINUTES.toMillis(5));
                device.close();
            }
            case "ping" ->
            {
                try (RfmDevice device = RfmDevices.open(uri))
                {
                    device.enableEvent(EventType.INTR2);
                    System.out.println("ready");
                    System.out.flush();
                    final int peer = Integer.parseInt(args[3]);
                    final int count = Integer.parseInt(args[4]);
                    final EventInfo reply = new EventInfo();
                    for (int i = 1; i <= count; i++)
                    {
                        device.window().putLong((i % 1024) * 8L, i);
                        RfmStatus status;
                        while ((status = device.sendEvent(peer, EventType.INTR1, i)) != RfmStatus.SUCCESS)
                        {
                            if (status != RfmStatus.SUCCESS)
                            {
                                System.out.println("send failed " + status);
                                return;
                            }
                        }
                        if (device.awaitEvent(EventType.INTR2, TimeUnit.SECONDS.toNanos(10), reply) != RfmStatus.SUCCESS)
                        {
                            System.out.println("no reply to " + i);
                            return;
                        }
                    }
                    System.out.println("done");
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }
}
