package io.rfmrt.control.tune;

import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.RealisticAxisParameters;

/**
 * The analytic model of the realistic axis in its loop, for tests, from its parameters and the gains only (no number
 * from a run): the linear part of {@link io.rfmrt.control.RealisticAxisPlant} (two masses on a spring-damper, viscous
 * friction, the current loop's first-order lag; Coulomb friction and gravity are constant torques while the axis
 * moves one way and drop out of a small-signal model) discretised exactly under a zero-order hold, the transport
 * delay of the harness, the encoder's differenced velocity, and the cascaded controller of
 * {@link io.rfmrt.control.AxisController} in z:
 * <pre>
 *   x = [θm, ωm, θl, ωl, q],  dx/dt = A·x + B·u       q: the torque after the current lag τ
 *   Φ = e^(A·T),  Γ = ∫0..T e^(A·s) ds·B               (one matrix exponential of [[A, B], [0, 0]]·T)
 *   Θ(z)/U(z) = C·(z·I − Φ)^−1·Γ·z^−d                  d: whole periods of delay (command of k applied from k + d)
 *   Ω(z)     = (1 − z^−1)/T · Θ(z)                      the drive's velocity: counts differenced
 *   C_v(z)   = Kv·(1 + Ki·T·z^−1/(1 − z^−1))             I_k = Kv·Ki·T·Σ_{j<k} e_j
 *   L(z)     = C_v(z)·(Kp + (1 − z^−1)/T)·Θ(z)/U(z)     the cascade opened at the torque command
 * </pre>
 */
final class AxisModel
{
    private static final int N = 5;
    private final double periodSeconds;
    private final int delayPeriods;
    private final double[][] phi;
    private final double[] gamma;

    AxisModel(final RealisticAxisParameters p, final double periodSeconds, final int delayPeriods)
    {
        this.periodSeconds = periodSeconds;
        this.delayPeriods = delayPeriods;
        final double jm = p.motorInertiaKgM2();
        final double jl = p.loadInertiaKgM2();
        final double k = p.couplingStiffnessNmPerRad();
        final double c = p.couplingDampingNmSPerRad();
        final double b = p.viscousFrictionNmSPerRad();
        final double tau = p.currentLagSeconds();
        final double[][] m = new double[N + 1][N + 1];
        m[0][1] = 1;
        m[1][0] = -k / jm;
        m[1][1] = -(c + b) / jm;
        m[1][2] = k / jm;
        m[1][3] = c / jm;
        m[1][4] = 1 / jm;
        m[2][3] = 1;
        m[3][0] = k / jl;
        m[3][1] = c / jl;
        m[3][2] = -k / jl;
        m[3][3] = -c / jl;
        m[4][4] = -1 / tau;
        m[4][5] = 1 / tau;
        for (final double[] row : m)
        {
            for (int j = 0; j < row.length; j++)
            {
                row[j] *= periodSeconds;
            }
        }
        final double[][] e = exp(m);
        phi = new double[N][N];
        gamma = new double[N];
        for (int i = 0; i < N; i++)
        {
            System.arraycopy(e[i], 0, phi[i], 0, N);
            gamma[i] = e[i][N];
        }
    }

    /** e^M by scaling and squaring a Taylor series. */
    private static double[][] exp(final double[][] m)
    {
        final int n = m.length;
        double norm = 0;
        for (final double[] row : m)
        {
            double s = 0;
            for (final double v : row)
            {
                s += Math.abs(v);
            }
            norm = Math.max(norm, s);
        }
        final int squarings = Math.max(0, (int)Math.ceil(Math.log(norm) / Math.log(2)) + 4);
        final double scale = Math.pow(2, -squarings);
        final double[][] a = new double[n][n];
        for (int i = 0; i < n; i++)
        {
            for (int j = 0; j < n; j++)
            {
                a[i][j] = m[i][j] * scale;
            }
        }
        double[][] result = identity(n);
        double[][] term = identity(n);
        for (int order = 1; order <= 24; order++)
        {
            term = multiply(term, a);
            for (int i = 0; i < n; i++)
            {
                for (int j = 0; j < n; j++)
                {
                    term[i][j] /= order;
                    result[i][j] += term[i][j];
                }
            }
        }
        for (int s = 0; s < squarings; s++)
        {
            result = multiply(result, result);
        }
        return result;
    }

    private static double[][] identity(final int n)
    {
        final double[][] r = new double[n][n];
        for (int i = 0; i < n; i++)
        {
            r[i][i] = 1;
        }
        return r;
    }

    private static double[][] multiply(final double[][] a, final double[][] b)
    {
        final int n = a.length;
        final double[][] r = new double[n][n];
        for (int i = 0; i < n; i++)
        {
            for (int k = 0; k < n; k++)
            {
                for (int j = 0; j < n; j++)
                {
                    r[i][j] += a[i][k] * b[k][j];
                }
            }
        }
        return r;
    }

    /** @return {re, im} of Θ/U at f (motor position per torque command). */
    double[] position(final double hz)
    {
        final double w = 2 * Math.PI * hz * periodSeconds;
        final double zr = Math.cos(w);
        final double zi = Math.sin(w);
        // solve (z·I − Φ)·x = Γ, complex Gaussian elimination with partial pivoting
        final double[][] ar = new double[N][N + 1];
        final double[][] ai = new double[N][N + 1];
        for (int i = 0; i < N; i++)
        {
            for (int j = 0; j < N; j++)
            {
                ar[i][j] = -phi[i][j] + (i == j ? zr : 0);
                ai[i][j] = i == j ? zi : 0;
            }
            ar[i][N] = gamma[i];
        }
        for (int col = 0; col < N; col++)
        {
            int pivot = col;
            for (int r = col + 1; r < N; r++)
            {
                if (Math.hypot(ar[r][col], ai[r][col]) > Math.hypot(ar[pivot][col], ai[pivot][col]))
                {
                    pivot = r;
                }
            }
            final double[] tr = ar[col];
            ar[col] = ar[pivot];
            ar[pivot] = tr;
            final double[] ti = ai[col];
            ai[col] = ai[pivot];
            ai[pivot] = ti;
            for (int r = col + 1; r < N; r++)
            {
                final double[] f = div(ar[r][col], ai[r][col], ar[col][col], ai[col][col]);
                for (int j = col; j <= N; j++)
                {
                    ar[r][j] -= f[0] * ar[col][j] - f[1] * ai[col][j];
                    ai[r][j] -= f[0] * ai[col][j] + f[1] * ar[col][j];
                }
            }
        }
        final double[] xr = new double[N];
        final double[] xi = new double[N];
        for (int r = N - 1; r >= 0; r--)
        {
            double sr = ar[r][N];
            double si = ai[r][N];
            for (int j = r + 1; j < N; j++)
            {
                sr -= ar[r][j] * xr[j] - ai[r][j] * xi[j];
                si -= ar[r][j] * xi[j] + ai[r][j] * xr[j];
            }
            final double[] q = div(sr, si, ar[r][r], ai[r][r]);
            xr[r] = q[0];
            xi[r] = q[1];
        }
        // θm = x0, times z^−d
        return mul(xr[0], xi[0], Math.cos(-w * delayPeriods), Math.sin(-w * delayPeriods));
    }

    /** @return {re, im} of Ω/U at f, the differenced velocity per torque command. */
    double[] velocity(final double hz)
    {
        final double[] d = difference(hz);
        final double[] p = position(hz);
        return mul(p[0], p[1], d[0], d[1]);
    }

    /** @return {re, im} of L at f with these gains. */
    double[] openLoop(final ControllerGains g, final double hz)
    {
        final double w = 2 * Math.PI * hz * periodSeconds;
        final double t = periodSeconds;
        // C_v = Kv·(1 + Ki·T·z^−1/(1 − z^−1)) = Kv·(1 + Ki·T/(z − 1))
        final double[] zm1 = {Math.cos(w) - 1, Math.sin(w)};
        final double[] integral = div(g.velocityIntegralGainPerS() * t, 0, zm1[0], zm1[1]);
        final double[] cv = {g.velocityGainNmSPerRad() * (1 + integral[0]), g.velocityGainNmSPerRad() * integral[1]};
        final double[] d = difference(hz);
        final double[] outer = {g.positionGainPerS() + d[0], d[1]};
        final double[] p = position(hz);
        final double[] a = mul(cv[0], cv[1], outer[0], outer[1]);
        return mul(a[0], a[1], p[0], p[1]);
    }

    /** (1 − z^−1)/T. */
    private double[] difference(final double hz)
    {
        final double w = 2 * Math.PI * hz * periodSeconds;
        return new double[] {(1 - Math.cos(w)) / periodSeconds, Math.sin(w) / periodSeconds};
    }

    /** The open loop on a dense log grid, as a response the margins can be read from. */
    FrequencyResponse openLoopResponse(final ControllerGains g, final double fromHz, final double toHz,
        final int points)
    {
        final double[] hz = new double[points];
        final double[] re = new double[points];
        final double[] im = new double[points];
        final double[] coherence = new double[points];
        for (int i = 0; i < points; i++)
        {
            hz[i] = fromHz * Math.pow(toHz / fromHz, i / (points - 1.0));
            final double[] l = openLoop(g, hz[i]);
            re[i] = l[0];
            im[i] = l[1];
            coherence[i] = 1;
        }
        return FrequencyResponse.of(hz, re, im, coherence);
    }

    static double[] mul(final double ar, final double ai, final double br, final double bi)
    {
        return new double[] {ar * br - ai * bi, ar * bi + ai * br};
    }

    static double[] div(final double ar, final double ai, final double br, final double bi)
    {
        final double d = br * br + bi * bi;
        return new double[] {(ar * br + ai * bi) / d, (ai * br - ar * bi) / d};
    }
}
