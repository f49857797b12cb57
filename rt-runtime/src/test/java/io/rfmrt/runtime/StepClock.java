package io.rfmrt.runtime;

import org.agrona.concurrent.NanoClock;

/** A clock for tests that drive agents without threads: it moves on by 1000 ns at each reading (the first is 1000). */
final class StepClock implements NanoClock
{
    private long now;

    @Override
    public long nanoTime()
    {
        now += 1000;
        return now;
    }
}
