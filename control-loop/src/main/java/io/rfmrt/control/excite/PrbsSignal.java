package io.rfmrt.control.excite;

/**
 * A pseudo-random binary sequence: ±amplitude, each bit held for {@code bitCycles} cycles, the bits from a
 * maximal-length 31-bit linear-feedback shift register (x³¹ + x²⁸ + 1, period 2³¹ − 1 bits) started from the seed
 * mixed by SplitMix64's finaliser (a sparse register started from a seed with few ones, such as 7, would give long
 * runs of zeros and a correlated start).
 * Its power is spread evenly up to about 0.44 / (bitCycles·dt) (the first null of its spectrum is at
 * 1 / (bitCycles·dt)). The bits are made once, when the signal is (off the real-time path); the same seed gives the
 * same sequence.
 * <pre>
 *   register r (31 bits, never 0):  bit = ((r &gt;&gt; 30) ^ (r &gt;&gt; 27)) &amp; 1;  r = ((r &lt;&lt; 1) | bit) &amp; 0x7fffffff
 *   value(n) = bit[n / bitCycles] == 1 ? +A : −A
 * </pre>
 * Threading: immutable.
 */
public final class PrbsSignal implements ExcitationSignal
{
    private static final int MASK = 0x7fff_ffff;
    private final double amplitude;
    private final int bitCycles;
    private final long cycles;
    private final long[] bits;

    /**
     * @param amplitude A, in the injection point's unit (&gt; 0).
     * @param bitCycles how many cycles each bit is held (1..10000).
     * @param cycles    how many cycles it lasts (1..2³¹ − 1 bits' worth).
     * @param seed      the register's start, mixed (a mix with no ones in its low 31 bits is taken as 1).
     */
    public PrbsSignal(final double amplitude, final int bitCycles, final long cycles, final long seed)
    {
        if (!(amplitude > 0) || !Double.isFinite(amplitude) || bitCycles < 1 || bitCycles > 10_000 || cycles < 1 ||
            cycles / bitCycles > MASK)
        {
            throw new IllegalArgumentException("a PRBS needs amplitude " + amplitude + " > 0, a bit of 1..10000 cycles (" +
                bitCycles + ") and >= 1 cycle (" + cycles + ")");
        }
        this.amplitude = amplitude;
        this.bitCycles = bitCycles;
        this.cycles = cycles;
        final long count = (cycles + bitCycles - 1) / bitCycles;
        bits = new long[(int)((count + 63) >>> 6)];
        int r = (int)(mix(seed) & MASK);
        r = r == 0 ? 1 : r;
        for (long i = 0; i < count; i++)
        {
            final int bit = ((r >>> 30) ^ (r >>> 27)) & 1;
            r = ((r << 1) | bit) & MASK;
            if (bit == 1)
            {
                bits[(int)(i >>> 6)] |= 1L << (i & 63);
            }
        }
    }

    private static long mix(final long seed)
    {
        long z = seed + 0x9e37_79b9_7f4a_7c15L;
        z = (z ^ (z >>> 30)) * 0xbf58_476d_1ce4_e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d0_49bb_1331_11ebL;
        return z ^ (z >>> 31);
    }

    @Override
    public int kind()
    {
        return KIND_PRBS;
    }

    @Override
    public double amplitude()
    {
        return amplitude;
    }

    @Override
    public long cycles()
    {
        return cycles;
    }

    @Override
    public double value(final long n)
    {
        if (n < 0 || n >= cycles)
        {
            return 0.0;
        }
        final long i = n / bitCycles;
        return (bits[(int)(i >>> 6)] & (1L << (i & 63))) != 0 ? amplitude : -amplitude;
    }

    @Override
    public double frequencyHz(final long n)
    {
        return 0.0;
    }

    /**
     * @return how many cycles each bit is held.
     */
    public int bitCycles()
    {
        return bitCycles;
    }
}
