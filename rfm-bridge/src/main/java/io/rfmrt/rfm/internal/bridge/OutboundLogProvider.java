package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.sim.HostBridge;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * How the emulator finds the bridge of a bridged network (a service, see {@link HostBridge}): the network's bridge
 * file, checked and mapped, with the outbound log on it.
 */
public final class OutboundLogProvider implements HostBridge.Provider
{
    /**
     * {@inheritDoc}
     */
    @Override
    public HostBridge attachIfPresent(final Path networkDir, final String network, final UnsafeBuffer memory)
    {
        final BridgeFile file = BridgeFile.attachIfPresent(networkDir, network, memory.capacity());
        return file == null ? null : new OutboundLog(file, memory);
    }
}
