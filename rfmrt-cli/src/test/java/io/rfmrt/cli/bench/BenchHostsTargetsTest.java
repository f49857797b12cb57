package io.rfmrt.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code bench hosts} holds a bridge row to, from rows made here (no hosts, no processes).
 */
class BenchHostsTargetsTest
{
    @Test
    void shouldHoldEachBridgeRowToAeronsOwnAsTheTargetsSay()
    {
        final BenchHosts.Row bridge = BenchHosts.ROWS.get(0);
        final BenchHosts.Row aeron = BenchHosts.ROWS.stream().filter(r -> r.name().equals(bridge.floor()))
            .findFirst().orElseThrow();
        final List<BenchHosts.HostsRow> rows = List.of(
            row(bridge, 1_000, 0, 110.0, 900.0, null, null, 30.0),
            row(aeron, 1_000, 0, 100.0, 800.0, 15.0, 10.0, null),
            row(bridge, 10_000, 3, 50.0, 1_900.0, null, null, 100.0),
            row(aeron, 10_000, 0, 20.0, 1_000.0, 80.0, 70.0, null));

        final List<String> lines = BenchHosts.targets(rows, 1_000).stream().map(BenchRows.RowTarget::line).toList();

        assertThat(lines).containsExactly(
            "target: bridge-doorbell p50 <= 1.1x aeron-udp-backoff (Aeron's own over the link) at 1000 Hz: met " +
                "(p50 110.0 vs 100.0, ratio 1.10)",
            "target: bridge-doorbell p99 <= 2x aeron-udp-backoff at 10000 Hz: met (p99 1900.0 vs 1000.0, ratio 1.90)",
            "target: bridge-doorbell bridges' cpu <= 1.5x aeron-udp-backoff's sender and receiver at 10000 Hz: met " +
                "(cpu % 100.0 vs 150.0, ratio 0.67)",
            "target: bridge-doorbell loses no frame at any rate: MISSED (lost 0/3 at 1000/10000 Hz)");
    }

    private static BenchHosts.HostsRow row(final BenchHosts.Row row, final int rate, final long lost, final double p50,
        final double p99, final Double rxCpu, final Double txCpu, final Double bridgesCpu)
    {
        final BenchRun.ReceiverFigures f = new BenchRun.ReceiverFigures(1_000 - lost, lost, p50, p50, p50, p99, p99,
            p99, rxCpu, null);
        return BenchHosts.HostsRow.of(row, rate, new BenchHosts.Transfer(1_000, rate, 0, f, Map.of(), null, txCpu,
            bridgesCpu), null);
    }

    @Test
    void shouldSayATargetIsNotMeasuredWhenItsFloorRowFailed()
    {
        final BenchHosts.Row bridge = BenchHosts.ROWS.get(0);
        final BenchHosts.Row aeron = BenchHosts.ROWS.stream().filter(r -> r.name().equals(bridge.floor()))
            .findFirst().orElseThrow();
        final List<BenchHosts.HostsRow> rows = List.of(row(bridge, 1_000, 0, 110.0, 900.0, null, null, 30.0),
            BenchHosts.HostsRow.of(aeron, 1_000, null, "the receiver was not ready in 60 s"));

        assertThat(BenchHosts.targets(rows, 1_000).stream().map(BenchRows.RowTarget::line).toList()).containsExactly(
            "target: bridge-doorbell p50 <= 1.1x aeron-udp-backoff (Aeron's own over the link) at 1000 Hz: not " +
                "measured (a row is missing or failed)",
            "target: bridge-doorbell loses no frame at any rate: met (lost 0 at 1000 Hz)");
    }
}
