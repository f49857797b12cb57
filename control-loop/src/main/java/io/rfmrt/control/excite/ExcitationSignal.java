package io.rfmrt.control.excite;

/**
 * A test signal injected into a running loop, sampled once per loop cycle: its value at cycle {@code n} of the
 * signal (0 the first) and, for a sweep, its instantaneous frequency there. Made off the real-time path with
 * everything it needs precomputed; {@link #value} and {@link #frequencyHz} are pure functions of {@code n} (random
 * access, no state, no allocation), so a test, a replay and the controller sample the same signal.
 * <p>
 * Ids are journaled (v2 of an EXCITATION sample): {@link #KIND_STEP}, {@link #KIND_CHIRP}, {@link #KIND_PRBS}.
 * Threading: immutable; any thread.
 */
public interface ExcitationSignal
{
    /** Journaled kind: a step. */
    int KIND_STEP = 1;
    /** Journaled kind: a swept sine. */
    int KIND_CHIRP = 2;
    /** Journaled kind: a pseudo-random binary sequence. */
    int KIND_PRBS = 3;

    /**
     * @return {@link #KIND_STEP}, {@link #KIND_CHIRP} or {@link #KIND_PRBS}.
     */
    int kind();

    /**
     * @return the signal's amplitude (its peak |value|), in the unit of the point it is injected at.
     */
    double amplitude();

    /**
     * @return how many cycles it lasts.
     */
    long cycles();

    /**
     * @param n the signal's cycle, 0..{@link #cycles()} − 1 (0 outside it).
     * @return its value there.
     */
    double value(long n);

    /**
     * @param n the signal's cycle.
     * @return its instantaneous frequency there, Hz (0 for a step or a PRBS).
     */
    double frequencyHz(long n);
}
