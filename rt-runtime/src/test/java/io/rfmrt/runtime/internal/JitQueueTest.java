package io.rfmrt.runtime.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JitQueueTest
{
    @Test
    void shouldCountCompilationsInProgressAndQueued()
    {
        final String listing = """
            Current compiles:\s
            C2 CompilerThread0  1445       4       jdk.internal.org.objectweb.asm.SymbolTable::addConstantUtf8 (98 bytes)
            C1 CompilerThread0  1450       3       java.lang.String::hashCode (49 bytes)

            C1 compile queue:
            1460       3       java.util.HashMap::get (23 bytes)

            C2 compile queue:
            1391   !   4       io.rfmrt.rfm.internal.sim.SimDevice::awaitEvent (504 bytes)
            """;

        assertThat(JitQueue.count(listing)).isEqualTo(4);
    }

    @Test
    void shouldCountNothingWhenBothQueuesAreEmpty()
    {
        final String listing = """
            Current compiles:\s

            C1 compile queue:
            Empty

            C2 compile queue:
            Empty
            """;

        assertThat(JitQueue.count(listing)).isZero();
    }

    @Test
    void shouldReadThisJvmsQueue()
    {
        assertThat(JitQueue.pending()).as("this JVM lists its compile queue").isGreaterThanOrEqualTo(0);
    }
}
