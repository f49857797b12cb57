package io.rfmrt.cli.demo;

import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.sim.SimNetwork;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The demo's node processes, seen from the demo: when the controller is ready, their output relayed, their ends
 * awaited.
 */
public final class DemoProcesses
{
    private DemoProcesses()
    {
    }

    /**
     * Wait until the controller holds its node with sensor events enabled: from then on, no sensor frame is lost.
     *
     * @param network    the emulated network.
     * @param controller the controller's process.
     * @throws IllegalStateException when it does not come up within 60 s, or exits.
     */
    public static void awaitReady(final String network, final Process controller) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true)
        {
            try (SimNetwork net = SimNetwork.attach(network))
            {
                if (net.cards().stream().anyMatch(c -> c.node() == ControlFrames.CONTROLLER_NODE && c.ownerAlive() &&
                    (c.enabledMask() & EventType.INTR1.mask()) != 0))
                {
                    return;
                }
            }
            if (System.nanoTime() > deadline || !controller.isAlive())
            {
                throw new IllegalStateException("the controller process did not come up");
            }
            Thread.sleep(10);
        }
    }

    /**
     * Relay a child's output to the console on a daemon thread, keeping its result line apart.
     *
     * @param process the child.
     * @param console where its lines go.
     * @param result  receives its result line ({@link ChildResult}).
     * @return the relaying thread, started.
     */
    public static Thread relay(final Process process, final PrintWriter console,
        final AtomicReference<String> result)
    {
        final Thread t = new Thread(() ->
        {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = lines.readLine()) != null)
                {
                    if (ChildResult.is(line))
                    {
                        result.set(line);
                    }
                    else
                    {
                        console.println(line);
                        console.flush();
                    }
                }
            }
            catch (final IOException ignore)
            {
                // the process ended
            }
        }, "rfmrt-demo-relay");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Wait for both children: the plant ends the run, the controller stops after it. When one of them exits with a
     * failure first, the other is stopped at once (SIGTERM: it closes in order and flushes its journal) instead of
     * waiting for a plant or a "done" that will not come.
     *
     * @return "plant" or "controller", whichever failed first, or null when neither failed.
     */
    static String awaitChildren(final Process plant, final Process controller, final long plantSeconds,
        final List<Process> children) throws InterruptedException
    {
        final long plantDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(plantSeconds);
        long controllerDeadline = Long.MAX_VALUE;
        String failed = null;
        while (plant.isAlive() || controller.isAlive())
        {
            if (failed == null)
            {
                if (!plant.isAlive() && plant.exitValue() != 0)
                {
                    failed = "plant";
                }
                else if (!controller.isAlive() && controller.exitValue() != 0)
                {
                    failed = "controller";
                }
                if (failed != null)
                {
                    children.forEach(child -> child.toHandle().destroy());
                    controllerDeadline = Math.min(controllerDeadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
                }
            }
            if (!plant.isAlive() && controllerDeadline == Long.MAX_VALUE)
            {
                controllerDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            }
            final long now = System.nanoTime();
            if (plant.isAlive() && now > plantDeadline || now > controllerDeadline)
            {
                plant.destroyForcibly();
                controller.destroyForcibly();
                throw new IllegalStateException("the demo processes did not finish");
            }
            (plant.isAlive() ? plant : controller).waitFor(50, TimeUnit.MILLISECONDS);
        }
        if (failed == null)
        {
            failed = plant.exitValue() != 0 ? "plant" : controller.exitValue() != 0 ? "controller" : null;
        }
        return failed;
    }
}
