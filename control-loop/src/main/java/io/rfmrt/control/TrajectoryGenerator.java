package io.rfmrt.control;

import java.util.ArrayList;
import java.util.List;

/**
 * A planned sequence of point-to-point moves and dwells ({@link MoveProfile} segments), each starting where the one
 * before ended; {@link #sample(double, Setpoint)} gives the setpoint at any time. Built once with
 * {@link #builder(double)}; immutable afterwards.
 * <pre>
 * TrajectoryGenerator t = TrajectoryGenerator.builder(0.0)
 *     .dwell(0.5)
 *     .sCurveTo(1.0, 0.6, 3.0, 30.0)     // v_max rad/s, a_max rad/s², j_max rad/s³
 *     .dwell(0.3)
 *     .trapezoidalTo(0.0, 0.6, 3.0)
 *     .build();
 * t.sample(1.234, setpoint);
 * </pre>
 * Sampling is allocation free, deterministic (a function of t only) and safe from any thread.
 */
public final class TrajectoryGenerator
{
    private final MoveProfile[] segments;
    private final double[] segmentStart;
    private final double duration;
    private final double moveDistance;

    private TrajectoryGenerator(final List<MoveProfile> list)
    {
        segments = list.toArray(new MoveProfile[0]);
        segmentStart = new double[segments.length];
        double t = 0.0;
        double distance = 0.0;
        for (int i = 0; i < segments.length; i++)
        {
            segmentStart[i] = t;
            t += segments[i].durationSeconds();
            distance += segments[i].distance();
        }
        duration = t;
        moveDistance = distance;
    }

    /**
     * @param startPosition where the trajectory starts, rad.
     * @return a builder.
     */
    public static Builder builder(final double startPosition)
    {
        return new Builder(startPosition);
    }

    /**
     * The setpoint at a time since the trajectory started. Before 0: the start at rest; after the end: the final
     * position at rest.
     *
     * @param tSeconds seconds since the start.
     * @param out      receives position, velocity, acceleration and jerk.
     */
    public void sample(final double tSeconds, final Setpoint out)
    {
        final int low = segmentAt(tSeconds);
        segments[low].sample(tSeconds - segmentStart[low], out);
    }

    /**
     * @param tSeconds seconds since the start.
     * @return the index of the segment that plays at that time (the last one that starts at or before it; 0 before the
     *         start).
     */
    public int segmentAt(final double tSeconds)
    {
        // binary search for the last segment that starts at or before t
        int low = 0;
        int high = segments.length - 1;
        while (low < high)
        {
            final int mid = (low + high + 1) >>> 1;
            if (segmentStart[mid] <= tSeconds)
            {
                low = mid;
            }
            else
            {
                high = mid - 1;
            }
        }
        return low;
    }

    /**
     * The setpoint of the trajectory repeated end to end (it must end where it starts for the joins to be smooth).
     *
     * @param tSeconds seconds since the first start.
     * @param out      receives position, velocity, acceleration and jerk.
     */
    public void sampleRepeating(final double tSeconds, final Setpoint out)
    {
        sample(duration > 0.0 && tSeconds > 0.0 ? tSeconds % duration : tSeconds, out);
    }

    /**
     * @return the total time of all segments, s.
     */
    public double durationSeconds()
    {
        return duration;
    }

    /**
     * @return the sum of |distance| of every move, rad: the "move distance" that tracking errors are relative to.
     */
    public double moveDistance()
    {
        return moveDistance;
    }

    /**
     * How far the setpoint has travelled by a time: the |distance| of every move finished by then plus the part of
     * the move under way (a move is monotone, so its part is |position − start|). Equals {@link #moveDistance()} from
     * the end on. Allocates one {@link Setpoint}: not for a control cycle.
     *
     * @param tSeconds seconds since the start.
     * @return the distance, rad.
     */
    public double distanceCovered(final double tSeconds)
    {
        double covered = 0.0;
        for (int i = 0; i < segments.length; i++)
        {
            if (tSeconds >= segmentStart[i] + segments[i].durationSeconds())
            {
                covered += segments[i].distance();
            }
            else
            {
                if (tSeconds > segmentStart[i])
                {
                    final Setpoint at = new Setpoint();
                    segments[i].sample(tSeconds - segmentStart[i], at);
                    covered += Math.abs(at.position() - segments[i].startPosition());
                }
                break;
            }
        }
        return covered;
    }

    /**
     * @return where the trajectory starts, rad.
     */
    public double startPosition()
    {
        return segments[0].startPosition();
    }

    /**
     * @return where the trajectory ends, rad.
     */
    public double endPosition()
    {
        return segments[segments.length - 1].endPosition();
    }

    /**
     * @return the number of segments (moves and dwells).
     */
    public int segmentCount()
    {
        return segments.length;
    }

    /**
     * @param index 0-based segment index.
     * @return the segment's kind.
     */
    public MoveProfile.Kind segmentKind(final int index)
    {
        return segments[index].kind();
    }

    /**
     * @param index 0-based segment index.
     * @return when the segment starts, s since the trajectory started.
     */
    public double segmentStartSeconds(final int index)
    {
        return segmentStart[index];
    }

    /**
     * @param index 0-based segment index.
     * @return when the segment ends, s since the trajectory started.
     */
    public double segmentEndSeconds(final int index)
    {
        return segmentStart[index] + segments[index].durationSeconds();
    }

    /**
     * @param index 0-based segment index.
     * @return where the segment ends, rad.
     */
    public double segmentEndPosition(final int index)
    {
        return segments[index].endPosition();
    }

    /**
     * Builds a {@link TrajectoryGenerator}; each move starts where the previous segment ended. Not thread safe.
     */
    public static final class Builder
    {
        private final List<MoveProfile> segments = new ArrayList<>();
        private double position;

        private Builder(final double startPosition)
        {
            if (!Double.isFinite(startPosition))
            {
                throw new IllegalArgumentException("start position must be finite, was " + startPosition);
            }
            position = startPosition;
        }

        /**
         * @param seconds how long to stand still, s.
         * @return this.
         */
        public Builder dwell(final double seconds)
        {
            return add(MoveProfile.dwell(position, seconds));
        }

        /**
         * @param target end position, rad.
         * @param vMax   velocity limit, rad/s.
         * @param aMax   acceleration limit, rad/s².
         * @return this.
         */
        public Builder trapezoidalTo(final double target, final double vMax, final double aMax)
        {
            return add(MoveProfile.trapezoidal(position, target, vMax, aMax));
        }

        /**
         * @param target end position, rad.
         * @param vMax   velocity limit, rad/s.
         * @param aMax   acceleration limit, rad/s².
         * @param jMax   jerk limit, rad/s³.
         * @return this.
         */
        public Builder sCurveTo(final double target, final double vMax, final double aMax, final double jMax)
        {
            return add(MoveProfile.sCurve(position, target, vMax, aMax, jMax));
        }

        /**
         * @return the trajectory (a single 0 s dwell at the start position if nothing was added).
         */
        public TrajectoryGenerator build()
        {
            if (segments.isEmpty())
            {
                dwell(0.0);
            }
            return new TrajectoryGenerator(segments);
        }

        private Builder add(final MoveProfile segment)
        {
            segments.add(segment);
            position = segment.endPosition();
            return this;
        }
    }
}
