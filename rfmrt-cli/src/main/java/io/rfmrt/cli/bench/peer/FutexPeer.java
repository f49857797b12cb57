package io.rfmrt.cli.bench.peer;

import io.rfmrt.rfm.SharedMemoryFile;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * The floor of {@code bench peers}: a bare cross-process futex wake, as {@code bench events} measures it, but one
 * way and paced by the same sender as every other row. The sender copies the frame into a ring slot of a shared
 * file, stores the frame count with release order and wakes the futex on it; the receiver sleeps in
 * {@code FUTEX_WAIT} on the count and, once woken, hands on every slot up to it. No ring protocol beyond that (no
 * lap detection): it stands for the cheapest one-hop wake this machine has.
 *
 * <pre>
 *   0 +--------------------------------+
 *     | frames published (int32, futex) |
 *  64 +--------------------------------+
 *     | slot 0 .. SLOTS-1, 64 bytes each|
 *     +--------------------------------+
 * </pre>
 */
public final class FutexPeer implements PeerTransport
{
    static final int SLOTS = 4096;
    private static final int COUNT_OFFSET = 0;
    private static final int SLOTS_OFFSET = 64;
    private static final int FILE_BYTES = SLOTS_OFFSET + SLOTS * FRAME_BYTES;

    @Override
    public Sender sender(final Path dir, final String variant, final String option) throws Exception
    {
        final Path file = dir.resolve("futex-ring");
        final SharedMemoryFile map = SharedMemoryFile.create(file, FILE_BYTES, "futex ring");
        final UnsafeBuffer shared = map.buffer();
        return new Sender()
        {
            private int count;

            @Override
            public void connect(final String readyArgs)
            {
            }

            @Override
            public boolean send(final UnsafeBuffer frame)
            {
                shared.putBytes(SLOTS_OFFSET + (count & (SLOTS - 1)) * FRAME_BYTES, frame, 0, FRAME_BYTES);
                shared.putIntRelease(COUNT_OFFSET, ++count);
                map.wake(COUNT_OFFSET, 1);
                return true;
            }

            @Override
            public void close()
            {
                map.close();
            }
        };
    }

    @Override
    public Receiver receiver(final Path dir, final String variant) throws Exception
    {
        final SharedMemoryFile map = SharedMemoryFile.open(dir.resolve("futex-ring"), "futex ring");
        final UnsafeBuffer shared = map.buffer();
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
                int seen = 0;
                while (running)
                {
                    final int published = shared.getIntAcquire(COUNT_OFFSET);
                    if (published == seen)
                    {
                        map.await(COUNT_OFFSET, seen);
                        continue;
                    }
                    while (seen != published)
                    {
                        handler.onFrame(shared, SLOTS_OFFSET + (seen & (SLOTS - 1)) * FRAME_BYTES);
                        seen++;
                    }
                }
            }

            @Override
            public void stop()
            {
                running = false;
                map.wake(COUNT_OFFSET, 1);
            }

            @Override
            public void close()
            {
                map.close();
            }
        };
    }
}
