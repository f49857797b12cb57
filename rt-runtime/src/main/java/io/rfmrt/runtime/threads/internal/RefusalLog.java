package io.rfmrt.runtime.threads.internal;

import io.rfmrt.runtime.threads.RtSetupException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The refusal policy of an RT environment: permissive, every distinct refused step is warned once (one line) and
 * setup goes on; strict, the first refused step throws {@link RtSetupException}. Either way the distinct lines are
 * kept for {@code RtEnvironment.refusals()}. Thread-safe.
 */
public final class RefusalLog
{
    private final boolean strict;
    private final Consumer<String> warn;
    private final Set<String> warned = new HashSet<>();
    private final List<String> lines = new ArrayList<>();

    /**
     * @param strict whether a refusal throws.
     * @param warn   receives each distinct line in permissive mode.
     */
    public RefusalLog(final boolean strict, final Consumer<String> warn)
    {
        this.strict = strict;
        this.warn = Objects.requireNonNull(warn, "warn");
    }

    /**
     * @return whether a refusal throws.
     */
    public boolean strict()
    {
        return strict;
    }

    /**
     * Record a refused step: warn it once (permissive) or throw (strict).
     *
     * @param refusal what was refused.
     * @throws RtSetupException in strict mode.
     */
    public void refuse(final Refusal refusal)
    {
        final boolean first;
        synchronized (this)
        {
            first = warned.add(refusal.key());
            if (first)
            {
                lines.add(refusal.line());
            }
        }
        if (first && !strict)
        {
            warn.accept(refusal.line());
        }
        if (strict)
        {
            throw new RtSetupException("strict: " + refusal.what());
        }
    }

    /**
     * @return every distinct refusal line so far, in order.
     */
    public synchronized List<String> lines()
    {
        return List.copyOf(lines);
    }
}
