package io.rfmrt.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SoakReportTest
{
    private static final SoakSample.Subject NODE = new SoakSample.Subject("receiver", 42, null, true);
    private static final SoakSample.Subject SENDER = new SoakSample.Subject("sender", 43, null, false);

    @Test
    void shouldLeaveTheWarmUpOutOfTheTargets()
    {
        // the warm-up collects, compiles, faults and grows; nothing after it does
        final SoakReport report = SoakReport.of(List.of(
            sample(0, 0, 0, 0, 0, 0, 100_000_000),
            sample(10, 1000, 5, 300, 2, 40, 120_000_000),
            sample(20, 2000, 5, 300, 2, 40, 120_500_000),
            sample(30, 3000, 5, 300, 2, 40, 120_000_000)));

        assertThat(report.intervals()).hasSize(3);
        assertThat(report.intervals().get(0).warmUp()).isTrue();
        assertThat(report.intervals().get(0).processes().get(0).gc()).isEqualTo(5);
        assertThat(report.intervals().get(0).processes().get(0).threads().get(0).minorFaults()).isEqualTo(40);
        assertThat(report.intervals().get(1).processes().get(0).received()).isEqualTo(1000);
        assertThat(report.targets()).allSatisfy(t -> assertThat(t.met()).as(t.toString()).isTrue());
        assertThat(report.met()).isTrue();
    }

    @Test
    void shouldMissEachTargetThatSomethingAfterTheWarmUpBroke()
    {
        final SoakReport report = SoakReport.of(List.of(
            sample(0, 0, 0, 0, 0, 0, 100_000_000),
            sample(10, 1000, 0, 0, 0, 0, 100_000_000),
            // one collection, one compilation, three faults on the ISR thread, 2 % more resident, 4 frames lost
            sample(20, 1996, 1, 1, 4, 3, 102_000_000)));

        final Map<String, Boolean> met = new java.util.HashMap<>();
        report.targets().forEach(t -> met.put(t.name().split(" ")[1], t.met()));
        assertThat(met).containsEntry("lost", false).containsEntry("GC", false).containsEntry("compilations", false)
            .containsEntry("minor", false).containsEntry("RSS", false);
        assertThat(report.intervals().get(1).processes().get(0).lost()).isEqualTo(4);
        assertThat(report.intervals().get(1).processes().get(0).lastCompiled()).isEqualTo("a/B c");
        assertThat(report.met()).isFalse();
    }

    @Test
    void shouldHoldOnlyTheAnonymousResidentSetFlat()
    {
        // a journal's 80-MB mappings come into the resident set and go; the anonymous part stays within 1 %
        final SoakReport flat = SoakReport.of(List.of(
            sample(0, 0, 0, 0, 0, 0, 100_000_000, 0, 0),
            sample(10, 1000, 0, 0, 0, 0, 100_000_000, 0, 80_000_000),
            sample(20, 2000, 0, 0, 0, 0, 100_900_000, 0, 160_000_000),
            sample(30, 3000, 0, 0, 0, 0, 100_000_000, 0, 80_000_000)));
        assertThat(flat.targets().get(4).name()).isEqualTo("anonymous RSS flat (±1.0 %)");
        assertThat(flat.targets().get(4).met()).as(flat.targets().get(4).toString()).isTrue();
        assertThat(flat.targets().get(4).detail()).isEqualTo("largest move 0.90 % (receiver)");
        assertThat(flat.intervals().get(1).processes().get(0).rssBytes()).isEqualTo(260_900_000);
        assertThat(flat.intervals().get(1).processes().get(0).rssAnonBytes()).isEqualTo(100_900_000);

        final SoakReport grown = SoakReport.of(List.of(
            sample(0, 0, 0, 0, 0, 0, 100_000_000, 0, 0),
            sample(10, 1000, 0, 0, 0, 0, 100_000_000, 0, 0),
            sample(20, 2000, 0, 0, 0, 0, 101_100_000, 0, 0)));
        assertThat(grown.targets().get(4).met()).isFalse();
        assertThat(grown.targets().get(4).detail()).isEqualTo("largest move 1.10 % (receiver)");
    }

    @Test
    void shouldNotHoldTheSendersOwnProcessToTheTargets()
    {
        final SoakReport report = SoakReport.of(List.of(
            sample(0, 0, 0, 0, 0, 0, 100_000_000),
            sample(10, 1000, 0, 0, 0, 0, 100_000_000),
            sample(20, 2000, 0, 0, 0, 0, 100_000_000, 7)));

        assertThat(report.intervals().get(1).processes().get(1).gc()).isEqualTo(7);
        assertThat(report.met()).isTrue();
    }

    private static SoakSample sample(final double seconds, final long received, final long gc, final long compiles,
        final long gaps, final long isrFaults, final long rss)
    {
        return sample(seconds, received, gc, compiles, gaps, isrFaults, rss, 0);
    }

    private static SoakSample sample(final double seconds, final long received, final long gc, final long compiles,
        final long gaps, final long isrFaults, final long rss, final long senderGc)
    {
        return sample(seconds, received, gc, compiles, gaps, isrFaults, rss, senderGc, 0);
    }

    /**
     * @param anon   the node's anonymous resident set.
     * @param mapped the pages of mapped files resident beside it.
     */
    private static SoakSample sample(final double seconds, final long received, final long gc, final long compiles,
        final long gaps, final long isrFaults, final long anon, final long senderGc, final long mapped)
    {
        final SoakSample.Look node = new SoakSample.Look(NODE, new SoakSample.Frames(received, gaps, 0, 0, 0, 0),
            new ProcessProbe.Reading(42, true, anon + mapped, anon, jvm(gc, compiles), List.of(
                new ProcessProbe.ThreadReading("rfmrt-isr", 7, isrFaults, 1))));
        final SoakSample.Look sender = new SoakSample.Look(SENDER, null,
            new ProcessProbe.Reading(43, true, 50_000_000 + (long)seconds * 1_000_000,
                40_000_000 + (long)seconds * 1_000_000, jvm(senderGc, 100),
                List.of()));
        return new SoakSample(seconds, received + gaps, -1, 0, List.of(node, sender));
    }

    private static JvmPerfData jvm(final long gc, final long compiles)
    {
        return new JvmPerfData(Map.of("sun.gc.collector.0.invocations", gc, "sun.gc.collector.0.time", gc * 1000,
            "sun.os.hrt.frequency", 1_000_000_000L, "sun.ci.totalCompiles", compiles,
            "sun.gc.generation.0.spaces", 1L, "sun.gc.generation.0.space.0.used", 1_000_000L),
            Map.of("sun.ci.lastMethod", "a/B c"));
    }
}
