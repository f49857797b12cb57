package io.rfmrt.runtime.preflight;

import java.util.Objects;

/**
 * A {@link PreflightCheck} made of an id, its hint and a function; gives the function the helpers that fill in the
 * id and the hint.
 */
final class Check implements PreflightCheck
{
    /** The judging part of a check. */
    @FunctionalInterface
    interface Body
    {
        /**
         * @param host  the machine to judge.
         * @param check the check, for {@link Check#item} and {@link Check#unknown}.
         * @return the item.
         */
        PreflightItem run(HostView host, Check check);
    }

    private final CheckId id;
    private final String hint;
    private final Body body;

    Check(final CheckId id, final String hint, final Body body)
    {
        this.id = Objects.requireNonNull(id, "id");
        this.hint = Objects.requireNonNull(hint, "hint");
        this.body = Objects.requireNonNull(body, "body");
    }

    @Override
    public CheckId id()
    {
        return id;
    }

    @Override
    public String hint()
    {
        return hint;
    }

    @Override
    public PreflightItem run(final HostView host)
    {
        return body.run(host, this);
    }

    PreflightItem item(final CheckStatus status, final String value)
    {
        return new PreflightItem(id, status, value, hint);
    }

    /**
     * @return WARN, saying why the file could not be read.
     */
    PreflightItem unknown(final HostView host, final String path)
    {
        return item(CheckStatus.WARN, "unknown: " + host.why(path));
    }
}
