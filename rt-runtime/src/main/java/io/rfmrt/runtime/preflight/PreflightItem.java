package io.rfmrt.runtime.preflight;

import java.util.Objects;

/**
 * The result of one preflight item. Immutable.
 *
 * @param check  which item.
 * @param status its verdict.
 * @param value  what was found, one line (what the file says, or why it could not be read).
 * @param hint   how to fix it, one line; given for every status.
 */
public record PreflightItem(CheckId check, CheckStatus status, String value, String hint)
{
    /**
     * @param check  which item.
     * @param status its verdict.
     * @param value  what was found, one line.
     * @param hint   how to fix it, one line.
     */
    public PreflightItem
    {
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(hint, "hint");
    }

    /**
     * @return the stable id, {@link CheckId#id()}.
     */
    public String id()
    {
        return check.id();
    }

    /**
     * @return the human title, {@link CheckId#title()}.
     */
    public String title()
    {
        return check.title();
    }
}
