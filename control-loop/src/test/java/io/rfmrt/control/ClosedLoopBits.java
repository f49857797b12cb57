package io.rfmrt.control;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The demo's closed loop (plant and controller, {@link ClosedLoop}) as raw bits: position, velocity, torque and
 * integrator of every cycle. Run as a program it writes them to a file, so that another JVM (e.g. one with
 * {@code -Xint}) can be compared with this one.
 */
public final class ClosedLoopBits
{
    private ClosedLoopBits()
    {
    }

    /**
     * @param cycles cycles to run.
     * @return four raw-bit values per cycle.
     */
    static long[] run(final int cycles)
    {
        final DemoProfile demo = DemoProfile.standard();
        final ClosedLoop loop = new ClosedLoop(0);
        final long[] bits = new long[cycles * 4];
        loop.run(cycles, demo::setpoint, (k, t, s, sp, c) ->
        {
            final int i = (int)k * 4;
            bits[i] = Double.doubleToRawLongBits(s.position());
            bits[i + 1] = Double.doubleToRawLongBits(s.velocity());
            bits[i + 2] = Double.doubleToRawLongBits(c.torqueNm());
            bits[i + 3] = Double.doubleToRawLongBits(loop.state.integratorNm());
        });
        return bits;
    }

    /**
     * @param args cycles, then the file to write the bits to (big-endian longs).
     * @throws IOException when the file cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        final long[] bits = run(Integer.parseInt(args[0]));
        try (OutputStream file = Files.newOutputStream(Path.of(args[1]));
            DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(file)))
        {
            for (final long b : bits)
            {
                out.writeLong(b);
            }
        }
    }
}
