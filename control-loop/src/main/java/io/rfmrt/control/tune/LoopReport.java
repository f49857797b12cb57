package io.rfmrt.control.tune;

/**
 * What one excitation in a journal says about the loop ({@link #of}): the responses measured from the injection d,
 * and the figures read off them. A record of records and arrays, so that a library serialises it
 * ({@code rfmrt replay --frequency-response --json}) and reads it back ({@code rfmrt tune suggest}).
 * <pre>
 *   torque injection (u = c + d):  plant   P = H(d→ω) / H(d→u)     torque command → measured velocity
 *                                  open    L = −H(d→c) / H(d→u)    the cascade opened at the torque command
 *                                  closed  T = −H(d→c) = L/(1 + L)
 *   velocity-reference injection:  closed  H(d→ω)
 *   position-setpoint injection:   closed  H(d→θ)
 * </pre>
 * Every H is Welch's H1 with d as its input ({@link FrequencyResponse#welch}): d is known exactly and is not fed
 * back, so noise that the loop feeds back into u does not bias the quotients as it would bias H(u→ω).
 *
 * @param point          the injection point: torque, velocity or position.
 * @param signal         the signal: step, chirp or prbs.
 * @param amplitude      its amplitude (N·m, rad/s or rad).
 * @param fromHz         a chirp's lowest instantaneous frequency, Hz (0 otherwise).
 * @param toHz           its highest, Hz.
 * @param cycles         the excited cycles analysed.
 * @param runs           the runs of consecutive cycles they fall in (a segment lies inside one).
 * @param firstCycle     the first of them.
 * @param gaps           EXCITATION samples left out.
 * @param rateHz         the loop rate from the journal's stamps, Hz.
 * @param latencyP50Us   the median cycle latency over the run (sensor send to command written), µs.
 * @param window         the window.
 * @param segment        L, points per segment.
 * @param overlap        the overlap of segments.
 * @param segments       M, segments averaged.
 * @param minCoherence   the coherence a point needs to be read.
 * @param plant          P, or null without a torque injection.
 * @param openLoop       L, or null without a torque injection.
 * @param closedLoop     T.
 * @param resonance      the plant's resonance, or null.
 * @param delay          the plant's equivalent delay, or null.
 * @param margins        the open loop's margins, or null.
 * @param bandwidthHz    the closed loop's −3 dB bandwidth, Hz (NaN when it does not fall 3 dB).
 */
public record LoopReport(String point, String signal, double amplitude, double fromHz, double toHz, int cycles,
    int runs, long firstCycle, long gaps, double rateHz, double latencyP50Us, String window, int segment,
    double overlap, int segments, double minCoherence, Response plant, Response openLoop, Response closedLoop,
    LoopFigures.Resonance resonance, LoopFigures.Delay delay, LoopFigures.Margins margins, double bandwidthHz)
{
    /** Default segment length, points (about 1 Hz resolution at 4 kHz). */
    public static final int SEGMENT_DEFAULT = 4096;
    /** Default overlap. */
    public static final double OVERLAP_DEFAULT = 0.5;
    /** Segments a measurement needs at least, for its coherence to say anything. */
    public static final int MIN_SEGMENTS = 4;
    /** Segments the default segment length is halved to reach (4 without overlap, 7 at 50 %). */
    public static final int DEFAULT_SEGMENTS = 7;
    /** Injection point names by journal id (1, 2, 3). */
    static final String[] POINTS = {"?", "torque", "velocity", "position"};
    /** Signal names by journal id (1, 2, 3). */
    static final String[] SIGNALS = {"?", "step", "chirp", "prbs"};

    /**
     * One measured response, point by point.
     *
     * @param input     what it is from (d, u).
     * @param output    what it is to.
     * @param hz        frequencies, Hz.
     * @param re        Re H.
     * @param im        Im H.
     * @param coherence γ².
     */
    public record Response(String input, String output, double[] hz, double[] re, double[] im, double[] coherence)
    {
        static Response of(final String input, final String output, final FrequencyResponse r)
        {
            final int n = r.size();
            final double[] hz = new double[n];
            final double[] re = new double[n];
            final double[] im = new double[n];
            final double[] coherence = new double[n];
            for (int i = 0; i < n; i++)
            {
                hz[i] = r.hz(i);
                re[i] = r.re(i);
                im[i] = r.im(i);
                coherence[i] = r.coherence(i);
            }
            return new Response(input, output, hz, re, im, coherence);
        }
    }

    /**
     * @param r a response of this report.
     * @return it as a {@link FrequencyResponse} with this report's settings.
     * @throws IllegalArgumentException when its points are not a response.
     */
    public FrequencyResponse response(final Response r)
    {
        if (r == null || r.hz() == null || r.re() == null || r.im() == null || r.coherence() == null)
        {
            throw new IllegalArgumentException("the response has no points");
        }
        return FrequencyResponse.measured(r.hz(), r.re(), r.im(), r.coherence(), rateHz, segment, overlap, segments);
    }

    /**
     * Analyse the excited cycles.
     *
     * @param s            the cycles ({@link ExcitedCycles#series}).
     * @param segment      L (a power of two); 0 for the default, halved until the runs hold
     *                     {@value #DEFAULT_SEGMENTS} segments (or it reaches 64 points).
     * @param overlap      the overlap, 0 ≤ overlap &lt; 1.
     * @param minCoherence the coherence a point needs to be read.
     * @return the report.
     * @throws IllegalArgumentException when the excitation is too short to estimate anything.
     */
    public static LoopReport of(final ExcitedCycles.Series s, final int segment, final double overlap,
        final double minCoherence)
    {
        final int[] runs = s.runStarts();
        if (!(overlap >= 0 && overlap < 1))
        {
            throw new IllegalArgumentException("overlap " + overlap + " must be 0 <= overlap < 1");
        }
        if (segment > 0 && (Integer.bitCount(segment) != 1 || segment < 8))
        {
            throw new IllegalArgumentException("segment " + segment + " must be a power of two, 8 or more");
        }
        int l = segment > 0 ? segment : SEGMENT_DEFAULT;
        if (segment <= 0)
        {
            while (l > 64 && FrequencyResponse.segments(runs, s.cycles(), l, overlap) < DEFAULT_SEGMENTS)
            {
                l >>= 1;
            }
        }
        if (FrequencyResponse.segments(runs, s.cycles(), l, overlap) < MIN_SEGMENTS)
        {
            throw new IllegalArgumentException("the excitation's " + s.cycles() + " cycles in " + runs.length +
                " run(s) of consecutive cycles from cycle " + s.firstCycle() + " (" + s.gaps() + " excited cycles " +
                "left out) hold fewer than " + MIN_SEGMENTS + " segments of " + l + " points: " + (segment > 0 ?
                "use a shorter --segment, or " : "") + "see how the excitation ended (EXCITATION_STOPPED) and " +
                "whether cycles were skipped");
        }
        final double rate = 1.0 / s.periodSeconds();
        final int n = s.cycles();
        final double[] d = s.injected();
        Response plant = null;
        Response open = null;
        final Response closed;
        LoopFigures.Resonance resonance = null;
        LoopFigures.Delay delay = null;
        LoopFigures.Margins margins = null;
        final FrequencyResponse closedResponse;
        final FrequencyResponse first;
        if (s.point() == 1)
        {
            final double[] c = new double[n];
            final double[] minusC = new double[n];
            for (int i = 0; i < n; i++)
            {
                c[i] = s.before()[i];
                minusC[i] = -c[i];
            }
            final FrequencyResponse du = FrequencyResponse.welch(d, s.torque(), runs, rate, l, overlap);
            final FrequencyResponse dy = FrequencyResponse.welch(d, s.velocity(), runs, rate, l, overlap);
            final FrequencyResponse dc = FrequencyResponse.welch(d, minusC, runs, rate, l, overlap);
            final FrequencyResponse p = dy.divide(du, 1.0);
            final FrequencyResponse o = dc.divide(du, 1.0);
            first = du;
            closedResponse = dc;
            plant = Response.of("u", "velocity", p);
            open = Response.of("u", "-c", o);
            resonance = LoopFigures.resonance(p, 10 * p.hz(0), minCoherence);
            final double top = Double.isNaN(resonance.antiResonanceHz()) ? rate / 20 :
                0.6 * resonance.antiResonanceHz();
            delay = LoopFigures.delay(p, Math.max(10 * p.hz(0), s.fromHz()), top, minCoherence);
            margins = LoopFigures.margins(o, minCoherence);
            closed = Response.of("d", "-c", dc);
        }
        else
        {
            first = FrequencyResponse.welch(d, s.point() == 2 ? s.velocity() : s.position(), runs, rate,
                l, overlap);
            closedResponse = first;
            closed = Response.of("d", s.point() == 2 ? "velocity" : "position", first);
        }
        return new LoopReport(name(POINTS, s.point()), name(SIGNALS, s.kind()), s.amplitude(), s.fromHz(), s.toHz(),
            n, runs.length, s.firstCycle(), s.gaps(), rate, s.latencyP50Us(), FrequencyResponse.WINDOW, l, first.overlap(),
            first.segments(), minCoherence, plant, open, closed, resonance, delay, margins,
            LoopFigures.bandwidthHz(closedResponse, minCoherence));
    }

    static String name(final String[] names, final int id)
    {
        return id >= 1 && id < names.length ? names[id] : "unknown(" + id + ")";
    }
}
