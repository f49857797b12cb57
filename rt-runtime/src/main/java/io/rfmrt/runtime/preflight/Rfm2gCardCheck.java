package io.rfmrt.runtime.preflight;

import io.rfmrt.rfm.rfm2g.Rfm2gProbe;

import java.util.List;

/**
 * The preflight item of an RFM2g card, run only when the device URI names one.
 */
final class Rfm2gCardCheck
{
    static final String HINT_RFM2G =
        "load the RFM2g driver (the vendor's rfm2g_load), reserve DMA memory with mem= on the kernel command line " +
        "and give its physical address as dmaBase=, set dmaThreshold= (docs/architecture.md, running on a card)";

    private static final Check CHECK = new Check(CheckId.RFM2G_CARD, HINT_RFM2G,
        (host, check) -> item(Rfm2gProbe.of(host.options().device().orElseThrow())));

    private Rfm2gCardCheck()
    {
    }

    /**
     * @return the check; {@link Preflight} runs it only when the options name an RFM2g device.
     */
    static List<PreflightCheck> checks()
    {
        return List.of(CHECK);
    }

    /**
     * The RFM2g card: FAIL when the device node is missing or the card does not open, WARN when reads above the
     * threshold would go by PIO (no reserved DMA buffer) or the threshold means never, PASS otherwise.
     */
    static PreflightItem item(final Rfm2gProbe probe)
    {
        if (!probe.nodePresent())
        {
            return CHECK.item(CheckStatus.FAIL, "device node " + probe.devicePath() +
                " missing (is the rfm2g driver loaded?)");
        }
        if (probe.failure() != null)
        {
            return CHECK.item(CheckStatus.FAIL, probe.failure());
        }
        final String threshold = probe.dmaThreshold() == 0xFFFFFFFFL ? "never" : probe.dmaThreshold() + " bytes";
        final String value = probe.devicePath() + ", driver " + probe.driverVersion() + ", DMA threshold " +
            threshold + ", " + (probe.dmaReserved() ? probe.dmaBytes() + " bytes of host buffers in the reserved " +
            "DMA buffer" : "no reserved DMA buffer (dmaBase= not set): reads fall back to PIO");
        final boolean dmaUsable = probe.dmaReserved() && probe.dmaThreshold() != 0xFFFFFFFFL;
        return CHECK.item(dmaUsable ? CheckStatus.PASS : CheckStatus.WARN, value);
    }
}
