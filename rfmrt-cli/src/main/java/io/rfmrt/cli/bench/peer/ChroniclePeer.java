package io.rfmrt.cli.bench.peer;

import io.rfmrt.runtime.journal.Journal;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.threads.Pauser;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * Chronicle Queue as a peer of {@code bench peers}: the sender appends one document per frame (the frame's eight
 * longs) to a queue in {@code /dev/shm}, the receiver process tails it. Variants: {@code spin} (the tailer polls
 * without pause, a whole core) and {@code pauser} (Chronicle's {@code Pauser.balanced()}: busy a little, then yield,
 * then park for growing times, reset by each document read).
 */
public final class ChroniclePeer implements PeerTransport
{
    public static final String SPIN = "spin";
    public static final String PAUSER = "pauser";

    @Override
    public Sender sender(final Path dir, final String variant, final String option)
    {
        Journal.initChronicle();
        final SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir.resolve("chronicle")).build();
        return new Sender()
        {
            // created on the sender thread at its first send: a Chronicle appender belongs to one thread
            private ExcerptAppender appender;

            @Override
            public void connect(final String readyArgs)
            {
            }

            @Override
            public boolean send(final UnsafeBuffer frame)
            {
                if (appender == null)
                {
                    appender = queue.createAppender();
                }
                try (DocumentContext dc = appender.writingDocument())
                {
                    final Bytes<?> bytes = dc.wire().bytes();
                    for (int i = 0; i < FRAME_BYTES; i += Long.BYTES)
                    {
                        bytes.writeLong(frame.getLong(i));
                    }
                }
                return true;
            }

            @Override
            public void close()
            {
                if (appender != null)
                {
                    appender.close();
                }
                queue.close();
            }
        };
    }

    @Override
    public Receiver receiver(final Path dir, final String variant)
    {
        if (!SPIN.equals(variant) && !PAUSER.equals(variant))
        {
            throw new IllegalArgumentException("chronicle variant '" + variant + "' is not spin or pauser");
        }
        Journal.initChronicle();
        final SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir.resolve("chronicle")).build();
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[FRAME_BYTES]);
        return new Receiver()
        {
            private volatile boolean running = true;

            @Override
            public String open()
            {
                return "";
            }

            @Override
            public void run(final Handler handler)
            {
                final Pauser pauser = PAUSER.equals(variant) ? Pauser.balanced() : null;
                try (ExcerptTailer tailer = queue.createTailer())
                {
                    while (running)
                    {
                        boolean read = false;
                        try (DocumentContext dc = tailer.readingDocument())
                        {
                            if (dc.isPresent())
                            {
                                final Bytes<?> bytes = dc.wire().bytes();
                                for (int i = 0; i < FRAME_BYTES; i += Long.BYTES)
                                {
                                    frame.putLong(i, bytes.readLong());
                                }
                                read = true;
                            }
                        }
                        if (read)
                        {
                            handler.onFrame(frame, 0);
                            if (pauser != null)
                            {
                                pauser.reset();
                            }
                        }
                        else if (pauser != null)
                        {
                            pauser.pause();
                        }
                        else
                        {
                            Thread.onSpinWait();
                        }
                    }
                }
            }

            @Override
            public void stop()
            {
                running = false;
            }

            @Override
            public void close()
            {
                queue.close();
            }
        };
    }
}
