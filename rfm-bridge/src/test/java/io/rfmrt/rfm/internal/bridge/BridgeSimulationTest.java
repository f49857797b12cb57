package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.SimTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bridge protocol under a seeded, simulated network (see {@link BridgeSimulation}): the real {@link BridgeAgent}
 * of 3 to 5 hosts, links that break one way or both, bridges killed and restarted, bridges stopped and resumed.
 * <p>
 * {@code -Drfmrt.sim.seeds=N} runs N seeds from {@code -Drfmrt.sim.firstSeed} (1 by default); {@code
 * -Drfmrt.sim.seed=S} replays one seed and prints what happened. A failure names its seed.
 */
class BridgeSimulationTest
{
    private static final int SEEDS_DEFAULT = 2000;
    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimTestSupport.freshRoot();
    }

    @AfterEach
    void tearDown()
    {
        SimTestSupport.removeRoot(root);
    }

    @Test
    void shouldAskAgainForWordsWhoseRequestWasOfferedOnAStreamWithNoImageAtThePeer()
    {
        // seed 3: a peer stopped past the time-out comes back; host 4 asks host 3 for its words on a stream that
        // looks connected to it while host 3's image of it has ended: the request is lost with that image
        final BridgeSimulation sim = new BridgeSimulation(3, root.resolve("seed-3"), false);
        sim.run();
        assertThat(sim.askedAgain()).isPositive();
    }

    @Test
    void shouldGiveAHostRestartedEmptyItsFormerWordsBack()
    {
        // seed 1: host 3 restarts empty at 2,859 ms; before its former words were asked for, it held 0 in word 17
        // for good while the other hosts held 15,059 (found at step 3,730)
        final BridgeSimulation sim = new BridgeSimulation(1, root.resolve("seed-1"), false);
        sim.run();
        assertThat(sim.faults()).anyMatch(f -> f.kind() == BridgeSimulation.FaultKind.EMPTY_RESTART);
        assertThat(sim.takenBack()).isPositive();
    }

    @Test
    void shouldHealEveryFaultAndAgreeOnEveryWordForEverySeed()
    {
        final String one = System.getProperty("rfmrt.sim.seed");
        if (one != null && !one.isBlank())
        {
            final BridgeSimulation sim = new BridgeSimulation(Long.parseLong(one.trim()), root.resolve("replay"), true);
            sim.run();
            System.out.println("seed " + one + ": " + sim.hostCount() + " hosts, " + sim.steps() + " steps, faults " +
                sim.describeFaults());
            return;
        }
        final long first = Long.getLong("rfmrt.sim.firstSeed", 1L);
        final int seeds = Integer.getInteger("rfmrt.sim.seeds", SEEDS_DEFAULT);
        final java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        final long started = System.nanoTime();
        final long cpuStarted = threads.getCurrentThreadCpuTime();
        long steps = 0;
        int askedAgain = 0;
        int tookBack = 0;
        int restartedEmpty = 0;
        for (long seed = first; seed < first + seeds; seed++)
        {
            final BridgeSimulation sim = new BridgeSimulation(seed, root.resolve("hosts"), false);
            sim.run();
            steps += sim.steps();
            askedAgain += sim.askedAgain() > 0 ? 1 : 0;
            tookBack += sim.takenBack() > 0 ? 1 : 0;
            restartedEmpty += sim.faults().stream()
                .anyMatch(f -> f.kind() == BridgeSimulation.FaultKind.EMPTY_RESTART) ? 1 : 0;
        }
        final long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        final long cpuMs = TimeUnit.NANOSECONDS.toMillis(threads.getCurrentThreadCpuTime() - cpuStarted);
        System.out.println("bridge simulation: " + seeds + " seeds from " + first + ", " + steps + " steps, " + ms +
            " ms (" + cpuMs + " ms of cpu); a resync request asked again in " + askedAgain + " seeds; a host " +
            "restarted empty in " + restartedEmpty + " seeds, former words taken back in " + tookBack);
        assertThat(steps).isGreaterThanOrEqualTo((long)seeds * 1000);
    }
}
