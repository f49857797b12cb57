/**
 * Implementation of {@link io.rfmrt.runtime.threads}: libc binding, cpu lists, the per-thread placer. Not API.
 */
package io.rfmrt.runtime.threads.internal;
