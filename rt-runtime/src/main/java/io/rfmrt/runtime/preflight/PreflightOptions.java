package io.rfmrt.runtime.preflight;

import io.rfmrt.runtime.threads.RtPriorities;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What {@link Preflight#run(java.nio.file.Path, PreflightOptions)} needs to know beyond the files it reads. Immutable;
 * the {@code with…} methods return a changed copy.
 */
public final class PreflightOptions
{
    /**
     * Default of {@link #minRtPriority()}: the highest {@code SCHED_FIFO} priority an rfmrt node asks for by default,
     * the ISR-wake thread's ({@link RtPriorities#ISR_DEFAULT}).
     */
    public static final int MIN_RT_PRIORITY_DEFAULT = RtPriorities.ISR_DEFAULT;

    private static final PreflightOptions DEFAULTS = new PreflightOptions(null, MIN_RT_PRIORITY_DEFAULT, null);

    private final Pattern rfmIrqMatch;
    private final int minRtPriority;
    private final String device;

    private PreflightOptions(final Pattern rfmIrqMatch, final int minRtPriority, final String device)
    {
        this.rfmIrqMatch = rfmIrqMatch;
        this.minRtPriority = minRtPriority;
        this.device = device;
    }

    /**
     * @return no RFM IRQ pattern, {@link #MIN_RT_PRIORITY_DEFAULT}.
     */
    public static PreflightOptions defaults()
    {
        return DEFAULTS;
    }

    /**
     * @param pattern found ({@link java.util.regex.Matcher#find()}) in an IRQ's handler names marks it as the RFM
     *                card's: such IRQs may sit on isolated cores. {@code null} for none.
     * @return a copy with the pattern.
     */
    public PreflightOptions withRfmIrqMatch(final Pattern pattern)
    {
        return new PreflightOptions(pattern, minRtPriority, device);
    }

    /**
     * @param priority the {@code SCHED_FIFO} priority, 1-99, that {@code RLIMIT_RTPRIO} must allow.
     * @return a copy with the priority.
     * @throws IllegalArgumentException when the priority is outside 1-99.
     */
    public PreflightOptions withMinRtPriority(final int priority)
    {
        if (priority < 1 || priority > 99)
        {
            throw new IllegalArgumentException("minimum RT priority " + priority + " is not in 1-99");
        }
        return new PreflightOptions(rfmIrqMatch, priority, device);
    }

    /**
     * @param uri the node's device URI; an {@code rfm2g:} URI adds the {@link CheckId#RFM2G_CARD} item. Null for
     *            none.
     * @return a copy with the device.
     */
    public PreflightOptions withDevice(final String uri)
    {
        return new PreflightOptions(rfmIrqMatch, minRtPriority, uri);
    }

    /**
     * @return the node's device URI, if any.
     */
    public Optional<String> device()
    {
        return Optional.ofNullable(device);
    }

    /**
     * @return the pattern that marks the RFM card's IRQs, if any.
     */
    public Optional<Pattern> rfmIrqMatch()
    {
        return Optional.ofNullable(rfmIrqMatch);
    }

    /**
     * @return the {@code SCHED_FIFO} priority that {@code RLIMIT_RTPRIO} must allow.
     */
    public int minRtPriority()
    {
        return minRtPriority;
    }

    @Override
    public String toString()
    {
        return "PreflightOptions{rfmIrqMatch=" + Objects.toString(rfmIrqMatch, "none") +
            ", minRtPriority=" + minRtPriority + ", device=" + Objects.toString(device, "none") + '}';
    }
}
