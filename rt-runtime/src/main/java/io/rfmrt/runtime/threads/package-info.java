/**
 * Real-time threads: the process prepared for them ({@code mlockall}, {@code /dev/cpu_dma_latency}), their cpus
 * (configured, isolated, or best effort) and their placement (OpenHFT affinity, {@code SCHED_FIFO} through the
 * thread's tid), read back from the kernel and shown in one table. Entry point: {@link
 * io.rfmrt.runtime.threads.RtEnvironment#prepare}.
 */
package io.rfmrt.runtime.threads;
