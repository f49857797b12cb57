package io.rfmrt.runtime;

import io.rfmrt.rfm.channel.FrameView;

/**
 * The application's code on the receive path, called on the consumer thread for every valid frame.
 * <p>
 * Runs on an RT thread: no allocation, no locks, no logging, no blocking. The frame is valid only during the call.
 */
@FunctionalInterface
public interface FrameHandler
{
    /**
     * @param frame  the validated frame.
     * @param stamps its time stamps up to now.
     */
    void onFrame(FrameView frame, StageStamps stamps);
}
