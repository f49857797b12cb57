package io.rfmrt.control.node;

import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.excite.Excitation;
import io.rfmrt.runtime.journal.JournalWriter;

import static io.rfmrt.control.journal.ControlJournal.FAULT_DEADLINE_MISS;
import static io.rfmrt.control.journal.ControlJournal.FAULT_EXCITATION_STOPPED;
import static io.rfmrt.control.journal.ControlJournal.FAULT_FOLLOWING_ERROR;
import static io.rfmrt.control.journal.ControlJournal.FAULT_FRAME_SKIPPED;
import static io.rfmrt.control.journal.ControlJournal.SAMPLE_CONTROL;
import static io.rfmrt.control.journal.ControlJournal.SAMPLE_CONTROL_INPUT;
import static io.rfmrt.control.journal.ControlJournal.SAMPLE_EXCITATION;

/**
 * What the controller journals of a cycle (writer {@code controller}): per answered cycle a CONTROL sample (setpoint,
 * measured position and velocity, torque, error, latency) stamped when the command was written, and a CONTROL_INPUT
 * sample (the law's state before the cycle, the setpoint's derivatives, the sensor values) stamped with the sensor's
 * send time: together what {@code rfmrt replay --rerun} feeds the law again; while an excitation injects, an EXCITATION
 * sample stamped as the cycle's CONTROL sample. Faults: a skipped backlog frame, a deadline miss, a following-error
 * fault, an excitation's end.
 * <p>
 * Threading: the handler thread only; never waits (a full ring is counted by the writer).
 */
final class CycleJournal
{
    private final JournalWriter writer;

    /**
     * @param writer the controller's journal writer.
     */
    CycleJournal(final JournalWriter writer)
    {
        this.writer = writer;
    }

    /**
     * @param cycle  the skipped frame's sensor cycle.
     * @param newer  frames newer than it already in reflective memory.
     * @param nanos  when.
     */
    void skipped(final long cycle, final long newer, final long nanos)
    {
        writer.fault(FAULT_FRAME_SKIPPED, cycle, newer, nanos);
    }

    /**
     * @param cycle     the sensor cycle.
     * @param overNanos by how much the deadline was missed, ns.
     * @param written   when the command was written.
     */
    void deadlineMiss(final long cycle, final long overNanos, final long written)
    {
        writer.fault(FAULT_DEADLINE_MISS, cycle, overNanos, written);
    }

    /**
     * @param cycle   the sensor cycle.
     * @param error   the lag, rad (journaled in nrad).
     * @param written when.
     */
    void followingError(final long cycle, final double error, final long written)
    {
        writer.fault(FAULT_FOLLOWING_ERROR, cycle, (long)(Math.abs(error) * 1e9), written);
    }

    /**
     * An answered cycle.
     *
     * @param written       when its command was written.
     * @param stateId       the state it acted in.
     * @param sample        the sensor sample.
     * @param setpoint      the setpoint.
     * @param torque        the torque commanded, N·m.
     * @param error         setpoint − measured position, rad.
     * @param latencyNanos  sensor send → command written, ns.
     * @param lawState      the law's state before the cycle ({@link io.rfmrt.control.ControlLaw#journalState()}).
     */
    void cycle(final long written, final int stateId, final SensorSample sample, final Setpoint setpoint,
        final double torque, final double error, final long latencyNanos, final double lawState)
    {
        writer.sample(SAMPLE_CONTROL, written, sample.cycle(), stateId, setpoint.position(), sample.position(),
            sample.velocity(), torque, error, latencyNanos / 1e3);
        writer.sample(SAMPLE_CONTROL_INPUT, sample.sendNanos(), sample.cycle(), stateId, lawState, setpoint.velocity(),
            setpoint.acceleration(), setpoint.jerk(), sample.position(), sample.velocity());
    }

    /**
     * A cycle an excitation injected in, stamped as its CONTROL sample.
     *
     * @param written    when the cycle's command was written.
     * @param cycle      the sensor cycle.
     * @param excitation the excitation, after the cycle.
     */
    void excitation(final long written, final long cycle, final Excitation excitation)
    {
        writer.sample(SAMPLE_EXCITATION, written, cycle, excitation.point().id(), excitation.value(),
            excitation.frequencyHz(), excitation.signal().kind(), excitation.signal().amplitude(), excitation.before(),
            0.0);
    }

    /**
     * @param cycle  the sensor cycle the excitation ended or was refused on.
     * @param reason why (ControlJournal.EXCITATION_DONE ..).
     * @param nanos  when.
     */
    void excitationStopped(final long cycle, final int reason, final long nanos)
    {
        writer.fault(FAULT_EXCITATION_STOPPED, cycle, reason, nanos);
    }
}
