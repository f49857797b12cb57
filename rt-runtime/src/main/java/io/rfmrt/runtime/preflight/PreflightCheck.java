package io.rfmrt.runtime.preflight;

/**
 * One preflight item: reads what it needs from a {@link HostView} and judges it. Only reads; a missing or malformed
 * file makes the item {@link CheckStatus#WARN} with a value that says so. {@link Preflight} composes the checks of
 * the groups ({@link KernelChecks}, {@link IsolationChecks}, {@link IrqCheck}, {@link LimitChecks},
 * {@link Rfm2gCardCheck}) in report order.
 */
interface PreflightCheck
{
    /**
     * @return which item this is.
     */
    CheckId id();

    /**
     * @return how to fix it, one line; given with every status.
     */
    String hint();

    /**
     * @param host the machine (or fixture tree) to judge.
     * @return the item: status, what was found, the hint.
     */
    PreflightItem run(HostView host);
}
