package io.rfmrt.control.node;

import io.rfmrt.control.DeadlineMonitor;
import io.rfmrt.control.FollowingError;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-cycle checks with injected times: deadline misses counted and the first kept with their times, and a
 * following-error fault latched at once and passed to the watchdog.
 */
class SupervisionTest
{
    private static final long PERIOD = 1_000_000;
    private final List<Long> faults = new ArrayList<>();
    private final Supervision supervision = new Supervision(new DeadlineMonitor(PERIOD),
        new FollowingError(new FollowingError.Limits(0.005, 0.010, 0.6, 3)), 2, faults::add);

    @Test
    void shouldCountMissesAndKeepTheFirstWithTheirTimes()
    {
        final long deadline = supervision.deadlineNanos();
        assertThat(deadline).isPositive().isLessThanOrEqualTo(PERIOD);
        assertThat(supervision.deadline(0, deadline, 10, 0)).isFalse();
        assertThat(supervision.deadline(PERIOD, PERIOD + deadline + 1, PERIOD + 10, -5)).isTrue();
        assertThat(supervision.deadline(2 * PERIOD, 2 * PERIOD + 2 * deadline, 2 * PERIOD + 7, 300)).isTrue();
        assertThat(supervision.deadline(3 * PERIOD, 3 * PERIOD + 3 * deadline, 3 * PERIOD + 9, 0)).isTrue();
        assertThat(supervision.misses()).isEqualTo(3);
        assertThat(supervision.missesKept()).isEqualTo(2);
        assertThat(supervision.missesNotKept()).isEqualTo(1);
        assertThat(supervision.missFrom()).containsExactly(PERIOD, 2 * PERIOD);
        assertThat(supervision.missTo()).containsExactly(PERIOD + deadline + 1, 2 * PERIOD + 2 * deadline);
        assertThat(supervision.missWake()).containsExactly(PERIOD + 10, 2 * PERIOD + 7);
        assertThat(supervision.missOffCpu()).as("a negative off-CPU time is 0").containsExactly(0L, 300L);
    }

    @Test
    void shouldLatchAFollowingErrorFaultAndAskTheWatchdog()
    {
        assertThat(supervision.faulted()).isFalse();
        assertThat(supervision.followingError(10, 0.004, 0.0)).isFalse();
        // above the limit at rest for the filter's 3 cycles
        assertThat(supervision.followingError(11, 0.006, 0.0)).isFalse();
        assertThat(supervision.followingError(12, 0.006, 0.0)).isFalse();
        assertThat(supervision.followingError(13, 0.006, 0.0)).isTrue();
        assertThat(supervision.faulted()).isTrue();
        assertThat(supervision.faultCycle()).isEqualTo(13);
        assertThat(faults).containsExactly(13L);
        assertThat(supervision.followingErrorCheck().faulted()).isTrue();
        assertThat(supervision.followingErrorCheck().lagAtFault()).isEqualTo(0.006);
    }
}
