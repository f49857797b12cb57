/**
 * Control laws ({@link io.rfmrt.control.ControlLaw}): the shipped cascaded PID, an example PD law with feed-forward,
 * and finding a law by name or class. See docs/extending.md.
 */
package io.rfmrt.control.law;
