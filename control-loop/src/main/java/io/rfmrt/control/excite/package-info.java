/**
 * Excitation of a running loop, for measuring it: test signals ({@link io.rfmrt.control.excite.StepSignal},
 * {@link io.rfmrt.control.excite.ChirpSignal}, {@link io.rfmrt.control.excite.PrbsSignal}) made once and sampled per
 * cycle without allocating, a compact spec users write ({@link io.rfmrt.control.excite.ExcitationSpec}), and the
 * per-cycle state machine with its safety rules ({@link io.rfmrt.control.excite.Excitation}) that the controller and
 * the closed-loop harness run. What is injected is journaled as EXCITATION samples; see docs/control.md.
 */
package io.rfmrt.control.excite;
