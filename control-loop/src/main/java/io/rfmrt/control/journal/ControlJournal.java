package io.rfmrt.control.journal;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.CycleStatistics;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.replay.ReplayVocabulary;

/**
 * The control loop's journal codes, in one place:
 * <ul>
 *   <li>FAULT {@value #FAULT_DEADLINE_MISS} {@code DEADLINE_MISS}: a control cycle's command was written after the
 *   deadline (seq = cycle, value = lateness ns);</li>
 *   <li>FAULT {@value #FAULT_COMMAND_STALE} {@code COMMAND_STALE}: the plant's newest command was too old, it braked
 *   (seq = cycle, value = age in periods);</li>
 *   <li>FAULT {@value #FAULT_STALL} {@code STALL}: a thread of the node woke later than one period, a stall it
 *   measured itself (seq = cycle or frame of the first late wake-up, value = duration ns, nanos = when the thread
 *   should have run; writers "plant", "controller" and "watchdog");</li>
 *   <li>FAULT {@value #FAULT_FOLLOWING_ERROR} {@code FOLLOWING_ERROR}: the controller's position lag stayed above its
 *   limit for the filter time; the axis faulted (seq = cycle, value = lag in nrad, nanos = when);</li>
 *   <li>FAULT {@value #FAULT_MISSED_TICKS} {@code MISSED_TICKS}: the plant woke more than half a period after a tick
 *   was due and did not take the ticks it missed (seq = first missed tick, value = ticks missed);</li>
 *   <li>FAULT {@value #FAULT_LATE_COMMAND} {@code LATE_COMMAND}: the plant first saw a command one or more periods
 *   after it was due (seq = the command's cycle, value = periods late);</li>
 *   <li>FAULT {@value #FAULT_FRAME_SKIPPED} {@code FRAME_SKIPPED}: the controller did not compute on a sensor frame
 *   because a newer one was already in reflective memory (seq = the skipped cycle, value = frames newer);</li>
 *   <li>FAULT {@value #FAULT_DRIVE_FAULT} {@code DRIVE_FAULT}: the plant's drive entered FAULT (seq = the tick,
 *   value = why: {@value #DRIVE_FAULT_COMMAND_TIMEOUT} = its command timed out while operation was enabled);</li>
 *   <li>FAULT {@value #FAULT_EXCITATION_STOPPED} {@code EXCITATION_STOPPED}: an excitation ended or was refused, once
 *   (writer "controller"; seq = cycle, value = why: {@value #EXCITATION_DONE} done, {@value #EXCITATION_FAULT} a
 *   fault or trip, {@value #EXCITATION_DEADLINE_MISSES} a deadline-miss burst, {@value #EXCITATION_REFUSED} refused
 *   at its start: not operation-enabled or supervision off);</li>
 *   <li>STATE: watchdog transitions of the axis, as {@link #stateId(AxisState)} ids ({@link AxisState} names);</li>
 *   <li>SAMPLE {@value #SAMPLE_CONTROL} {@code CONTROL}: one control cycle ({@link ControlSample}), SAMPLE
 *   {@value #SAMPLE_CONTROL_INPUT} {@code CONTROL_INPUT}: the controller's inputs of that cycle, for re-runs
 *   ({@link ControlInputSample}), SAMPLE {@value #SAMPLE_PLANT} {@code PLANT}: the plant's state each period
 *   ({@link #PLANT_VALUES}; the record's state field is 1 while the brake is applied), SAMPLE
 *   {@value #SAMPLE_LOOP_PERIOD} {@code LOOP_PERIOD} and {@value #SAMPLE_LOOP_EXECUTION} {@code LOOP_EXECUTION}: a
 *   loop's statistics since it started, once a second and when it stops ({@link #loop}), SAMPLE
 *   {@value #SAMPLE_EXCITATION} {@code EXCITATION}: what an excitation injected in a cycle ({@link #EXCITATION_VALUES};
 *   the state field is the injection point).</li>
 * </ul>
 * A replay learns them through {@link #register(ReplayVocabulary)}.
 */
public final class ControlJournal
{
    /** FAULT code: the command was written after the deadline. */
    public static final int FAULT_DEADLINE_MISS = 100;
    /** FAULT code: the plant's newest command was too old; it braked. */
    public static final int FAULT_COMMAND_STALE = 101;
    /** FAULT code: a thread of the node woke later than one period (a stall it measured itself). */
    public static final int FAULT_STALL = 104;
    /** FAULT code: the following error stayed above its limit for the filter time; the axis faulted. */
    public static final int FAULT_FOLLOWING_ERROR = 105;
    /** FAULT code: the plant missed ticks (woke too late to take them on time) and did not make them up. */
    public static final int FAULT_MISSED_TICKS = 106;
    /** FAULT code: the plant first saw a command one or more periods after it was due. */
    public static final int FAULT_LATE_COMMAND = 107;
    /** FAULT code: the controller skipped a sensor frame (a newer one was already in memory). */
    public static final int FAULT_FRAME_SKIPPED = 108;
    /** FAULT code: the plant's drive faulted (value: why, {@link #DRIVE_FAULT_COMMAND_TIMEOUT}). */
    public static final int FAULT_DRIVE_FAULT = 109;
    /** Why a drive faulted: its command timed out while operation was enabled. */
    public static final int DRIVE_FAULT_COMMAND_TIMEOUT = 1;
    /** FAULT code: an excitation ended or was refused (value: why, {@link #EXCITATION_DONE} ..). */
    public static final int FAULT_EXCITATION_STOPPED = 110;
    /** Why an excitation stopped: its signal was over (a fade follows). */
    public static final int EXCITATION_DONE = 1;
    /** Why an excitation stopped: a fault or trip (the axis is no longer driven, or supervision faulted). */
    public static final int EXCITATION_FAULT = 2;
    /** Why an excitation stopped: a burst of deadline misses (a fade follows). */
    public static final int EXCITATION_DEADLINE_MISSES = 3;
    /** Why an excitation stopped: refused at its start (not operation-enabled, or supervision off). */
    public static final int EXCITATION_REFUSED = 4;

    /** SAMPLE kind: one control cycle. */
    public static final int SAMPLE_CONTROL = 1;
    /** SAMPLE kind: the controller's inputs of one cycle, for re-runs. */
    public static final int SAMPLE_CONTROL_INPUT = 2;
    /** SAMPLE kind: the plant's state each period (position, velocity, applied torque, braking 0/1). */
    public static final int SAMPLE_PLANT = 3;
    /** SAMPLE kind: a loop's cycle period and jitter since it started ({@link #LOOP_PERIOD_VALUES}). */
    public static final int SAMPLE_LOOP_PERIOD = 4;
    /** SAMPLE kind: a loop's execution time, overruns, skipped frames, late commands ({@link #LOOP_EXECUTION_VALUES}). */
    public static final int SAMPLE_LOOP_EXECUTION = 5;
    /**
     * SAMPLE kind: one cycle of an excitation ({@link #EXCITATION_VALUES}), stamped as that cycle's CONTROL sample;
     * its state field is the injection point (1 torque, 2 velocity reference, 3 position setpoint).
     */
    public static final int SAMPLE_EXCITATION = 6;
    /**
     * Value names of a {@link #SAMPLE_EXCITATION} sample, in record order: the injected value (N·m, rad/s or rad, by
     * point), the signal's instantaneous frequency (Hz; a chirp's, 0 for a step, a PRBS and the fade), the signal's
     * kind (1 step, 2 chirp, 3 PRBS), its amplitude, the value at the injection point before the injection was added
     * (the law's torque, its velocity reference, the trajectory's position setpoint), and a reserved 0.
     */
    public static final String[] EXCITATION_VALUES = {"injected", "frequency_hz", "kind", "amplitude", "before",
        "reserved"};
    /** Value names of a {@link #SAMPLE_LOOP_PERIOD} sample (µs), in record order; its cycle field: cycles counted. */
    public static final String[] LOOP_PERIOD_VALUES = {"period_p50_us", "period_p99_us", "period_max_us",
        "period_min_us", "jitter_p99_us", "jitter_max_us"};
    /** Value names of a {@link #SAMPLE_LOOP_EXECUTION} sample, in record order; its cycle field: cycles counted. */
    public static final String[] LOOP_EXECUTION_VALUES = {"execution_p50_us", "execution_p99_us",
        "execution_max_us", "overruns", "skipped_frames", "late_commands"};

    /**
     * Value names of a {@link #SAMPLE_PLANT} sample, in record order: the true motor position and velocity, the motor
     * torque, 1 while the brake is applied (engaged, engaging or not yet released), the position the drive reported
     * (the encoder's, on the realistic axis) and the drive's status word.
     */
    public static final String[] PLANT_VALUES = {"position", "velocity", "torque", "braking", "measured_position",
        "status_word"};

    private static final AxisState[] STATES = AxisState.values();

    private ControlJournal()
    {
    }

    /**
     * @param state an axis state.
     * @return the id it is journalled with (STATE records, the state field of control samples).
     */
    public static int stateId(final AxisState state)
    {
        return state.id();
    }

    /**
     * @param id a journalled state id.
     * @return the axis state, or {@code null} for an id no state has.
     */
    public static AxisState state(final int id)
    {
        return AxisState.fromId(id);
    }

    /**
     * Add the control codes to a replay's vocabulary.
     *
     * @param vocabulary the vocabulary.
     * @return {@code vocabulary}.
     * @throws IllegalArgumentException when it already gives one of the codes another name.
     */
    public static ReplayVocabulary register(final ReplayVocabulary vocabulary)
    {
        vocabulary.fault(FAULT_DEADLINE_MISS, "DEADLINE_MISS")
            .fault(FAULT_COMMAND_STALE, "COMMAND_STALE")
            .fault(FAULT_STALL, "STALL")
            .fault(FAULT_FOLLOWING_ERROR, "FOLLOWING_ERROR")
            .fault(FAULT_MISSED_TICKS, "MISSED_TICKS")
            .fault(FAULT_LATE_COMMAND, "LATE_COMMAND")
            .fault(FAULT_FRAME_SKIPPED, "FRAME_SKIPPED")
            .fault(FAULT_DRIVE_FAULT, "DRIVE_FAULT")
            .fault(FAULT_EXCITATION_STOPPED, "EXCITATION_STOPPED");
        for (final AxisState state : STATES)
        {
            vocabulary.state(stateId(state), state.name());
        }
        vocabulary.sample(SAMPLE_CONTROL, "CONTROL", ControlSample.VALUES)
            .sample(SAMPLE_CONTROL_INPUT, "CONTROL_INPUT", ControlInputSample.VALUES)
            .sample(SAMPLE_PLANT, "PLANT", PLANT_VALUES)
            .sample(SAMPLE_LOOP_PERIOD, "LOOP_PERIOD", LOOP_PERIOD_VALUES)
            .sample(SAMPLE_LOOP_EXECUTION, "LOOP_EXECUTION", LOOP_EXECUTION_VALUES)
            .sample(SAMPLE_EXCITATION, "EXCITATION", EXCITATION_VALUES);
        return vocabulary;
    }

    /**
     * Journal a loop's statistics since it started: a {@link #SAMPLE_LOOP_PERIOD} and a {@link #SAMPLE_LOOP_EXECUTION}
     * sample (a replay reports the last pair of each writer).
     *
     * @param writer        the writer (its one producer's thread).
     * @param nanos         when.
     * @param figures       the figures since the start.
     * @param skippedFrames frames the loop skipped (controller), 0 otherwise.
     * @param lateCommands  commands that arrived late (plant), 0 otherwise.
     * @return whether both records were taken (a full ring refuses them; the journal counts that).
     */
    public static boolean loop(final JournalWriter writer, final long nanos, final CycleStatistics.Figures figures,
        final long skippedFrames, final long lateCommands)
    {
        final boolean period = writer.sample(SAMPLE_LOOP_PERIOD, nanos, figures.cycles(), 0, figures.periodP50Us(),
            figures.periodP99Us(), figures.periodMaxUs(), figures.periodMinUs(), figures.jitterP99Us(),
            figures.jitterMaxUs());
        final boolean execution = writer.sample(SAMPLE_LOOP_EXECUTION, nanos, figures.cycles(), 0,
            figures.executionP50Us(), figures.executionP99Us(), figures.executionMaxUs(), figures.overruns(),
            skippedFrames, lateCommands);
        return period && execution;
    }

    /**
     * @return the runtime's vocabulary with the control codes added.
     */
    public static ReplayVocabulary vocabulary()
    {
        return register(ReplayVocabulary.runtime());
    }
}
