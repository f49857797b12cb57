package io.rfmrt.runtime.preflight;

/**
 * The verdict of one preflight item.
 */
public enum CheckStatus
{
    /** The setting is what a real-time node needs. */
    PASS,
    /** Not what a real-time node needs, or could not be read; the runtime still works, with more jitter. */
    WARN,
    /** The node cannot give real-time guarantees like this: {@code rfmrt check} exits 1. */
    FAIL
}
