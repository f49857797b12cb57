package io.rfmrt.control.replay;

import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.runtime.replay.Playback;
import io.rfmrt.runtime.replay.PlaybackRecording;

import java.util.List;

/**
 * What a playback of the plant's sensor frames does in the plant's place besides publishing them: the controller
 * stops on its own only when the layout's {@code plant.done} word holds the plant's last cycle
 * ({@link ControlFrames#PLANT_DONE_OFFSET}), so a playback of the {@code axis.sensor} channel clears the word before
 * its first frame (a word left set by an earlier run would stop a fresh controller at once) and, after its last frame,
 * writes the sensor cycle of the last sensor frame played (the payload's cycle field). The controller then stops once
 * it has handled that cycle, as at the end of a demo. Playbacks of other channels are left alone.
 * <p>
 * Runs on the player thread, once before the first frame and once after the last.
 */
public final class ControlPlayback implements Playback.Listener
{
    @Override
    public void started(final PlaybackRecording recording, final List<ChannelSpec> channels,
        final List<RfmDevice> devices)
    {
        final int sensor = sensorSource(channels);
        if (sensor >= 0)
        {
            devices.get(sensor).window().putLongRelease(ControlFrames.PLANT_DONE_OFFSET, 0);
            // no plant says its rate: a word left by one before is not this playback's
            devices.get(sensor).window().putLongRelease(ControlFrames.PLANT_RATE_OFFSET, 0);
        }
    }

    @Override
    public void ended(final PlaybackRecording recording, final List<ChannelSpec> channels,
        final List<RfmDevice> devices, final int lastFrame)
    {
        final int sensor = sensorSource(channels);
        if (sensor < 0)
        {
            return;
        }
        for (int i = lastFrame; i >= 0; i--)
        {
            if (recording.sourceIndex(i) == sensor && recording.payloadLength(i) >= ControlFrames.SENSOR_LENGTH)
            {
                final long cycle = recording.payloads().getLong(recording.payloadOffset(i) +
                    ControlFrames.SENSOR_CYCLE_OFFSET);
                devices.get(sensor).window().putLongRelease(ControlFrames.PLANT_DONE_OFFSET, Math.max(1, cycle));
                return;
            }
        }
    }

    /**
     * @param channels the played channels.
     * @return the position of the control layout's sensor channel among them, -1 when it is not played.
     */
    static int sensorSource(final List<ChannelSpec> channels)
    {
        for (int i = 0; i < channels.size(); i++)
        {
            final ChannelSpec c = channels.get(i);
            if (c.name().equals(ControlFrames.SENSOR.name()) && c.offset() == ControlFrames.SENSOR.offset())
            {
                return i;
            }
        }
        return -1;
    }
}
