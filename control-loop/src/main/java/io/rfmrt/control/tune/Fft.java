package io.rfmrt.control.tune;

/**
 * An in-place radix-2 complex FFT of one size, X[k] = Σ x[n]·e^(−j·2π·k·n/N), n, k = 0..N−1, N a power of two:
 * iterative Cooley-Tukey, decimation in time (bit-reversal permutation, then log2 N butterfly stages), the twiddles
 * e^(−j·2π·m/N) computed once per size with {@link Math#cos}/{@link Math#sin} (not by recurrence, so the error stays
 * at a few ulps times log2 N).
 * <p>
 * Preallocated: {@link #forward} allocates nothing. Threading: an instance is immutable after construction and may be
 * shared; the arrays passed in belong to the caller.
 */
public final class Fft
{
    /** The largest size: 2^24 points. */
    public static final int MAX_SIZE = 1 << 24;

    private final int size;
    private final int bits;
    private final double[] cos;
    private final double[] sin;

    /**
     * @param size N, a power of two from 2 to {@link #MAX_SIZE}.
     * @throws IllegalArgumentException naming the size when it is not.
     */
    public Fft(final int size)
    {
        if (size < 2 || size > MAX_SIZE || Integer.bitCount(size) != 1)
        {
            throw new IllegalArgumentException("FFT size " + size + " must be a power of two from 2 to " + MAX_SIZE);
        }
        this.size = size;
        this.bits = Integer.numberOfTrailingZeros(size);
        this.cos = new double[size / 2];
        this.sin = new double[size / 2];
        for (int m = 0; m < size / 2; m++)
        {
            final double angle = -2.0 * Math.PI * m / size;
            cos[m] = Math.cos(angle);
            sin[m] = Math.sin(angle);
        }
    }

    /**
     * @return N.
     */
    public int size()
    {
        return size;
    }

    /**
     * Transform in place.
     *
     * @param re the real parts, N of them; replaced by the transform's.
     * @param im the imaginary parts, N of them; replaced by the transform's.
     */
    public void forward(final double[] re, final double[] im)
    {
        if (re.length < size || im.length < size)
        {
            throw new IllegalArgumentException("FFT of " + size + " points given arrays of " + re.length + " and " +
                im.length);
        }
        final int shift = 32 - bits;
        for (int i = 0; i < size; i++)
        {
            final int j = Integer.reverse(i) >>> shift;
            if (j > i)
            {
                final double r = re[i];
                re[i] = re[j];
                re[j] = r;
                final double m = im[i];
                im[i] = im[j];
                im[j] = m;
            }
        }
        for (int half = 1; half < size; half <<= 1)
        {
            final int stride = size / (2 * half);
            for (int start = 0; start < size; start += 2 * half)
            {
                for (int k = 0; k < half; k++)
                {
                    final double wr = cos[k * stride];
                    final double wi = sin[k * stride];
                    final int a = start + k;
                    final int b = a + half;
                    final double tr = wr * re[b] - wi * im[b];
                    final double ti = wr * im[b] + wi * re[b];
                    re[b] = re[a] - tr;
                    im[b] = im[a] - ti;
                    re[a] += tr;
                    im[a] += ti;
                }
            }
        }
    }
}
