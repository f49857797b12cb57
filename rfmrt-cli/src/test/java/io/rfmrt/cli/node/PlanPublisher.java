package io.rfmrt.cli.node;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.RfmWindow;
import io.rfmrt.rfm.channel.ChannelLayout;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameHeaderDescriptor;
import io.rfmrt.rfm.channel.FramePublisher;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * A publishing process for the reader tests: one incarnation of a channel's publisher, that follows a plan and exits.
 * Arguments: device URI, layout file, channel name, then the plan: {@code pN} publishes the next N frames,
 * {@code t} leaves the next frame's slot at {@code -seq} with half its payload written and sends its event (a
 * publisher that died in the middle of the write), numbering on after it; {@code r} restarts the publisher at once,
 * with nothing in between (a new incarnation numbering from 1, as a new process would: the restart in the middle of
 * a burst). The payload's first long is the frame's number. Exit 0 when every send succeeded.
 */
public final class PlanPublisher
{
    private PlanPublisher()
    {
    }

    /**
     * @param args device, layout, channel, plan steps.
     */
    public static void main(final String[] args)
    {
        final ChannelSpec channel = ChannelLayout.load(Path.of(args[1])).channel(args[2]).orElseThrow();
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
        try (RfmDevice device = RfmDevices.open(args[0]))
        {
            FramePublisher publisher = new FramePublisher(device, channel);
            for (int i = 3; i < args.length; i++)
            {
                final String step = args[i];
                if (step.equals("r"))
                {
                    publisher = new FramePublisher(device, channel);
                }
                else if (step.equals("t"))
                {
                    final long seq = publisher.lastSeq() + 1;
                    final long slot = channel.slotOffset(seq);
                    final RfmWindow window = device.window();
                    window.putLongThenStoreStoreFence(slot + FrameHeaderDescriptor.SEQ_OFFSET, -seq);
                    window.putLong(slot + FrameHeaderDescriptor.HEADER_SIZE, seq);
                    check(device.sendEvent(channel.target(), channel.event(), (int)seq, slot,
                        FrameHeaderDescriptor.transferLength(payload.capacity())));
                    publisher.resumeAfter(seq);
                }
                else
                {
                    final int frames = Integer.parseInt(step.substring(1));
                    for (int f = 0; f < frames; f++)
                    {
                        payload.putLong(0, publisher.lastSeq() + 1);
                        check(publisher.publish(payload, 0, payload.capacity(), 0));
                    }
                }
            }
        }
    }

    private static void check(final RfmStatus status)
    {
        if (status != RfmStatus.SUCCESS)
        {
            System.err.println("send: " + status);
            System.exit(1);
        }
    }
}
