package io.rfmrt.runtime;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

/**
 * An extra thread of a node: an Agrona {@link Agent}, where it runs and how it idles. The node runs it under its
 * {@link RtErrorPolicy}: an exception from {@link Agent#doWork()} stops the node.
 *
 * @param agent     the work.
 * @param placement its core and priority.
 * @param idle      what the runner does when {@code doWork} returned 0 (an agent that waits for its own schedule
 *                  inside {@code doWork} takes {@link org.agrona.concurrent.NoOpIdleStrategy}).
 */
public record NodeAgent(Agent agent, CpuPlacement placement, IdleStrategy idle)
{
}
