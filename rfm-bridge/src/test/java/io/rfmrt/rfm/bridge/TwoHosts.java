package io.rfmrt.rfm.bridge;

import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.SimTestSupport;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import io.rfmrt.rfm.internal.sim.SimDevice;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32C;

/**
 * Test helper: two "hosts" in one JVM, each an emulated network in its own folder with its own bridge, joined over
 * UDP on the loopback interface. Each bridge runs on its own thread; a failure of either is kept and rethrown.
 */
final class TwoHosts implements AutoCloseable
{
    static final String NETWORK = "lab";
    static final long MEMORY = 1 << 20;
    static final long PEER_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(1500);

    final Path root;
    final Path dirA;
    final Path dirB;
    final int portA;
    final int portB;
    private AgentRunner runnerA;
    private AgentRunner runnerB;
    Bridge bridgeA;
    Bridge bridgeB;
    final AtomicReference<Throwable> failure = new AtomicReference<>();

    TwoHosts() throws IOException
    {
        root = SimTestSupport.freshRoot();
        dirA = Files.createDirectories(root.resolve("a").resolve(NETWORK));
        dirB = Files.createDirectories(root.resolve("b").resolve(NETWORK));
        portA = freePort();
        portB = freePort();
    }

    static int freePort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    BridgeContext context(final boolean a)
    {
        return new BridgeContext()
            .network(a ? dirA : dirB, NETWORK)
            .memorySize(MEMORY)
            .hostId(a ? 1 : 2)
            .hostName(a ? "host-a" : "host-b")
            .channel("aeron:udp?endpoint=127.0.0.1:" + (a ? portA : portB))
            .peer(new BridgeContext.Peer(a ? 2 : 1, "127.0.0.1:" + (a ? portB : portA)))
            .logCapacity(1 << 20)
            .peerTimeoutNs(PEER_TIMEOUT_NS)
            .heartbeatNs(TimeUnit.MILLISECONDS.toNanos(50))
            .termLength(1 << 20);
    }

    void start(final boolean a)
    {
        final Bridge bridge = Bridge.launch(context(a));
        final java.util.concurrent.atomic.AtomicBoolean frozen = a ? frozenA : frozenB;
        frozen.set(false);
        final org.agrona.concurrent.Agent agent = new org.agrona.concurrent.Agent()
        {
            @Override
            public int doWork()
            {
                return frozen.get() ? 0 : bridge.doWork();
            }

            @Override
            public void onClose()
            {
                bridge.onClose();
            }

            @Override
            public String roleName()
            {
                return bridge.roleName();
            }
        };
        final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(10, 10, 1000, 100_000),
            t -> failure.compareAndSet(null, t), null, agent);
        AgentRunner.startOnThread(runner);
        if (a)
        {
            bridgeA = bridge;
            runnerA = runner;
        }
        else
        {
            bridgeB = bridge;
            runnerB = runner;
        }
    }

    /**
     * Stop running a bridge's duty cycle without closing it, as if its process had been killed: its lease runs out.
     */
    void freeze(final boolean a)
    {
        (a ? frozenA : frozenB).set(true);
    }

    private final java.util.concurrent.atomic.AtomicBoolean frozenA = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicBoolean frozenB = new java.util.concurrent.atomic.AtomicBoolean();

    void stop(final boolean a)
    {
        if (a && runnerA != null)
        {
            runnerA.close();
            runnerA = null;
        }
        else if (!a && runnerB != null)
        {
            runnerB.close();
            runnerB = null;
        }
    }

    void awaitLinkUp() throws InterruptedException
    {
        await(() -> bridgeA != null && bridgeA.linkUp() && bridgeB != null && bridgeB.linkUp(), "both links up");
    }

    void await(final BooleanSupplier condition, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean())
        {
            if (failure.get() != null)
            {
                throw new AssertionError("a bridge failed", failure.get());
            }
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(5);
        }
    }

    static RfmDevice open(final Path dir, final int node)
    {
        return SimDevice.open("sim:" + NETWORK + "?node=" + node, NetworkImage.createOrAttach(dir, NETWORK, MEMORY),
            node, DmaMode.AUTO, DmaRingFullPolicy.DROP_NEWEST, 64, 2048, false);
    }

    static boolean remoteHeld(final Path dir, final int node)
    {
        try (NetworkImage image = NetworkImage.attach(dir, NETWORK))
        {
            return image.isPresent(node) && image.isRemote(node);
        }
    }

    static long imageCrc(final Path dir)
    {
        try (NetworkImage image = NetworkImage.attach(dir, NETWORK))
        {
            final byte[] bytes = new byte[(int)image.memorySize()];
            image.memory().getBytes(0, bytes);
            final CRC32C crc = new CRC32C();
            crc.update(bytes);
            return crc.getValue();
        }
    }

    @Override
    public void close()
    {
        stop(true);
        stop(false);
        SimTestSupport.removeRoot(root);
    }
}
