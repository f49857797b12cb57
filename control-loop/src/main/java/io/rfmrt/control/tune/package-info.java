/**
 * Loop tuning from measurements: the FFT and Welch's H1 estimate of a frequency response with its coherence
 * ({@link io.rfmrt.control.tune.FrequencyResponse}), stability margins, bandwidth and delay from a measured response
 * ({@link io.rfmrt.control.tune.LoopFigures}), step-response figures ({@link io.rfmrt.control.tune.StepFigures}),
 * the excitation and the loop's signals collected from a journal ({@link io.rfmrt.control.tune.ExcitationRecording}),
 * and gains suggested from a measured plant ({@link io.rfmrt.control.tune.GainSuggestion}). Pure computation, off the
 * real-time path. See docs/loop-tuning.md.
 */
package io.rfmrt.control.tune;
