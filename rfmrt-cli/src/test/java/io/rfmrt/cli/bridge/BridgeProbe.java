package io.rfmrt.cli.bridge;

import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.RfmWindow;
import io.rfmrt.rfm.sim.SimNetwork;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Test program run on an emulated host (in a network namespace, by {@code BridgeNetnsTest}): a node that sends or
 * receives ordered events, or writes its own region, on a bridged network. Prints one result line.
 * <ul>
 *   <li>{@code order-send NET NODE TARGET COUNT}: for i = 1..COUNT, write i at {@link #DATA}, then send INTR1 with
 *       data i to TARGET; at most {@link #WINDOW} ahead of the receiver's acknowledgement at {@link #ACK}.</li>
 *   <li>{@code order-receive NET NODE COUNT}: take COUNT events; each must be the next number and find its number (or
 *       a later one) at {@link #DATA}; acknowledge each at {@link #ACK}.</li>
 *   <li>{@code write NET NODE BASE SECONDS STOPFILE}: write a counter into 64 words from BASE once a millisecond
 *       until SECONDS passed or STOPFILE exists, counting the SYNC_LOSS events of its card.</li>
 * </ul>
 */
public final class BridgeProbe
{
    static final long DATA = 0x1000;
    static final long ACK = 0x2000;
    static final int WINDOW = 64;

    private BridgeProbe()
    {
    }

    /**
     * @param args see the class comment.
     */
    public static void main(final String[] args) throws Exception
    {
        final String network = args[1];
        final int node = Integer.parseInt(args[2]);
        try (RfmDevice device = RfmDevices.open("sim:" + network + "?node=" + node))
        {
            switch (args[0])
            {
                case "order-send" -> send(network, device, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
                case "order-receive" -> receive(device, Integer.parseInt(args[3]));
                case "write" -> write(device, Long.decode(args[3]), Integer.parseInt(args[4]),
                    java.nio.file.Path.of(args[5]));
                default -> throw new IllegalArgumentException(args[0]);
            }
        }
        System.out.flush();
        System.exit(0);
    }

    private static void send(final String network, final RfmDevice device, final int target, final int count)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!remotePresent(network, target))
        {
            if (System.nanoTime() > deadline)
            {
                System.out.println("target " + target + " never seen");
                System.exit(1);
            }
            Thread.sleep(20);
        }
        final RfmWindow w = device.window();
        for (int i = 1; i <= count; i++)
        {
            w.putLongRelease(DATA, i);
            while (i - w.getLongAcquire(ACK) > WINDOW)
            {
                LockSupport.parkNanos(20_000);
                if (System.nanoTime() > deadline)
                {
                    System.out.println("no acknowledgement after " + w.getLongAcquire(ACK));
                    System.exit(1);
                }
            }
            final RfmStatus status = device.sendEvent(target, EventType.INTR1, i);
            if (status != RfmStatus.SUCCESS)
            {
                System.out.println("send " + i + " refused: " + status);
                System.exit(1);
            }
        }
        System.out.println("sent " + count);
    }

    private static boolean remotePresent(final String network, final int node)
    {
        try (SimNetwork net = SimNetwork.attach(network))
        {
            return net.cards().stream().anyMatch(c -> c.node() == node && c.present() && c.remote());
        }
    }

    private static void receive(final RfmDevice device, final int count)
    {
        device.enableEvent(EventType.INTR1);
        System.out.println("ready");
        System.out.flush();
        final RfmWindow w = device.window();
        final EventInfo info = new EventInfo();
        long violations = 0;
        long disorder = 0;
        int received = 0;
        while (received < count)
        {
            final RfmStatus status = device.awaitEvent(EventType.INTR1, TimeUnit.SECONDS.toNanos(30), info);
            if (status != RfmStatus.SUCCESS)
            {
                break;
            }
            received++;
            if (w.getLongAcquire(DATA) < info.data())
            {
                violations++;
            }
            if (info.data() != received)
            {
                disorder++;
            }
            w.putLongRelease(ACK, info.data());
        }
        System.out.println("received " + received + " violations " + violations + " disorder " + disorder +
            " overflows " + device.counter(RfmCounter.FIFO_OVERFLOWS, EventType.INTR1));
    }

    private static void write(final RfmDevice device, final long base, final int seconds,
        final java.nio.file.Path stop) throws InterruptedException
    {
        device.enableEvent(EventType.SYNC_LOSS);
        System.out.println("writing");
        System.out.flush();
        final RfmWindow w = device.window();
        final EventInfo info = new EventInfo();
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long counter = 0;
        int syncLosses = 0;
        while (System.nanoTime() < end && !java.nio.file.Files.exists(stop))
        {
            counter++;
            for (int i = 0; i < 64; i++)
            {
                w.putLongRelease(base + i * 8L, counter * 64 + i);
            }
            while (device.pollEvent(EventType.SYNC_LOSS, info) == RfmStatus.SUCCESS)
            {
                syncLosses++;
                device.enableEvent(EventType.SYNC_LOSS);
            }
            Thread.sleep(1);
        }
        System.out.println("wrote " + counter + " sync-losses " + syncLosses);
    }
}
