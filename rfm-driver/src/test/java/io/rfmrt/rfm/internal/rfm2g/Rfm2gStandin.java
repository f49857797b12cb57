package io.rfmrt.rfm.internal.rfm2g;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.rfmrt.rfm.sim.SimNetwork;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Test helpers for the native stand-in of librfm2g that the test build compiles: its "device node" files, and the
 * stand-in's own transfer counters (DMA or PIO), which the real library does not have.
 */
public final class Rfm2gStandin
{
    /** The stand-in's extra call, bound through an interface mapping of the same library. */
    public interface Transfers extends Library
    {
        /**
         * @return an RFM2G_STATUS.
         */
        int rfmrtStandinTransfers(long handle, long[] dmaReads, long[] pioReads, long[] dmaWrites, long[] pioWrites);
    }

    private static Transfers transfers;

    private Rfm2gStandin()
    {
    }

    /**
     * Write a device node for a card of a sim network.
     *
     * @param root      the emulator root of the test.
     * @param network   network name (the network must exist).
     * @param node      node id of the card.
     * @param dmaBuffer bytes of reserved DMA buffer, 0 for none.
     * @return the path to pass as {@code rfm2g:PATH}.
     */
    public static Path deviceNode(final Path root, final String network, final int node, final int dmaBuffer)
    {
        final Path file = root.resolve("rfm2g-" + network + "-" + node);
        try
        {
            Files.createDirectories(root);
            Files.writeString(file, "network=" + SimNetwork.dir(network) + "\nnode=" + node + "\ndmaBuffer=" +
                dmaBuffer + "\n");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return file;
    }

    /**
     * @param card an open card.
     * @return {dmaReads, pioReads, dmaWrites, pioWrites} as the stand-in counted them.
     */
    public static synchronized long[] transfers(final Rfm2gDevice card)
    {
        if (transfers == null)
        {
            transfers = Native.load(Rfm2gLibrary.DEFAULT_LIBRARY, Transfers.class);
        }
        final long[] dmaReads = new long[1];
        final long[] pioReads = new long[1];
        final long[] dmaWrites = new long[1];
        final long[] pioWrites = new long[1];
        final int code = transfers.rfmrtStandinTransfers(card.handle(), dmaReads, pioReads, dmaWrites, pioWrites);
        if (code != Rfm2gCodes.SUCCESS)
        {
            throw new IllegalStateException("rfmrtStandinTransfers: " + Rfm2gCodes.statusName(code));
        }
        return new long[] {dmaReads[0], pioReads[0], dmaWrites[0], pioWrites[0]};
    }
}
