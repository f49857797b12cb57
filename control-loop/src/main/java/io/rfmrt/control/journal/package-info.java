/**
 * What the control loop writes into a node's journal and how to read it back: the control codes (fault codes,
 * watchdog states, sample kinds, {@link io.rfmrt.control.journal.ControlJournal}), registered with a replay's
 * {@link io.rfmrt.runtime.replay.ReplayVocabulary} so that the runtime's replay names them without knowing the
 * control loop, and typed flyweights over SAMPLE records ({@link io.rfmrt.control.journal.ControlSample},
 * {@link io.rfmrt.control.journal.ControlInputSample}) that read values by name rather than by position.
 */
package io.rfmrt.control.journal;
