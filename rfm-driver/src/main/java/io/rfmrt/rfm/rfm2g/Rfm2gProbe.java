package io.rfmrt.rfm.rfm2g;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmException;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a look at an RFM2g card finds, for {@code rfmrt check}: the device node, whether the vendor library opens
 * it, the driver version, the DMA buffer and the DMA threshold. Opens the card and closes it again.
 *
 * @param devicePath   the device node of the URI.
 * @param nodePresent  whether the device node exists.
 * @param failure      why the card could not be opened (one line), or null.
 * @param driverVersion driver version from the card, or null.
 * @param productName  product name from the card, or null.
 * @param dmaThreshold the DMA threshold in force, bytes (0xFFFFFFFF = never), or -1.
 * @param dmaReserved  whether the host DMA buffers lie in the boot-reserved DMA buffer.
 * @param dmaBytes     bytes of host DMA buffers.
 */
public record Rfm2gProbe(
    String devicePath,
    boolean nodePresent,
    String failure,
    String driverVersion,
    String productName,
    long dmaThreshold,
    boolean dmaReserved,
    long dmaBytes)
{
    /** URI scheme of the backend. */
    public static final String SCHEME = "rfm2g:";

    /**
     * @param uri a device URI.
     * @return whether it names an RFM2g card.
     */
    public static boolean isRfm2g(final String uri)
    {
        return uri != null && uri.startsWith(SCHEME);
    }

    /**
     * Look at the card a URI names.
     *
     * @param uri an {@code rfm2g:} URI.
     * @return what was found; never throws for a card that is missing or refuses to open.
     */
    public static Rfm2gProbe of(final String uri)
    {
        final String rest = uri.substring(SCHEME.length());
        final int question = rest.indexOf('?');
        final String path = question < 0 ? rest : rest.substring(0, question);
        if (path.isEmpty() || !Files.exists(Path.of(path)))
        {
            return new Rfm2gProbe(path, false, null, null, null, -1, false, 0);
        }
        try (RfmDevice device = RfmDevices.open(uri))
        {
            final Rfm2gCard card = (Rfm2gCard)device;
            return new Rfm2gProbe(path, true, null, card.driverVersion(), card.productName(), card.dmaThreshold(),
                card.dmaBufferReserved(), (long)card.dma().slotCount() * card.dma().slotSize());
        }
        catch (final RfmException ex)
        {
            return new Rfm2gProbe(path, true, ex.getMessage(), null, null, -1, false, 0);
        }
    }
}
