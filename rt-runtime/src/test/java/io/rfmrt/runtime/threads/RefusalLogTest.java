package io.rfmrt.runtime.threads;

import io.rfmrt.runtime.threads.internal.Refusal;
import io.rfmrt.runtime.threads.internal.RefusalLog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RefusalLogTest
{
    @Test
    void shouldWarnEachDistinctRefusalOnceWhenPermissive()
    {
        final List<String> warned = new ArrayList<>();
        final RefusalLog log = new RefusalLog(false, warned::add);
        final Refusal fifo = Refusal.ofThread("SCHED_FIFO", "rfmrt-isr", "SCHED_FIFO 80 refused (EPERM)",
            "running SCHED_OTHER");

        log.refuse(fifo);
        log.refuse(fifo);
        log.refuse(Refusal.ofProcess("mlockall", "mlockall refused", "memory may be paged out"));

        assertThat(warned).containsExactly("SCHED_FIFO 80 refused (EPERM): running SCHED_OTHER",
            "mlockall refused: memory may be paged out");
        assertThat(log.lines()).isEqualTo(warned);
    }

    @Test
    void shouldThrowOnTheFirstRefusalWhenStrict()
    {
        final List<String> warned = new ArrayList<>();
        final RefusalLog log = new RefusalLog(true, warned::add);

        assertThatThrownBy(() -> log.refuse(Refusal.ofProcess("mlockall", "mlockall refused", "paged out")))
            .isInstanceOf(RtSetupException.class).hasMessage("strict: mlockall refused");
        assertThat(warned).isEmpty();
        assertThat(log.lines()).containsExactly("mlockall refused: paged out");
    }
}
