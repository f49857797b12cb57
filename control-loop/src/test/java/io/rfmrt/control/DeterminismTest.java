package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Same inputs, same bits: the closed loop run twice, and the controller re-run alone over recorded inputs as a replay
 * does, compared with {@link Double#doubleToRawLongBits}.
 */
class DeterminismTest
{
    private static final int CYCLES = 9_000;

    @Test
    void shouldGiveBitIdenticalRunsOfPlantAndController()
    {
        final long[] first = run();
        final long[] second = run();
        assertThat(second).isEqualTo(first);
    }

    @Test
    void shouldReplayTheControllerBitForBitFromRecordedInputs()
    {
        final DemoProfile demo = DemoProfile.standard();
        final double[] integrator = new double[CYCLES];
        final SensorSample[] samples = new SensorSample[CYCLES];
        final Setpoint[] setpoints = new Setpoint[CYCLES];
        final ControlCommand[] commands = new ControlCommand[CYCLES];
        final ClosedLoop loop = new ClosedLoop(0);
        final double[] stateBefore = {0.0};
        loop.run(CYCLES, (t, out) ->
        {
            demo.setpoint(t, out);
            stateBefore[0] = loop.state.integratorNm();
        }, (k, t, s, sp, c) ->
        {
            final int i = (int)k;
            integrator[i] = stateBefore[0];
            samples[i] = new SensorSample().copyFrom(s);
            setpoints[i] = new Setpoint().copyFrom(sp);
            commands[i] = new ControlCommand().copyFrom(c);
        });

        // the replay: a fresh controller, each cycle started from the journaled state
        final AxisController replay = new AxisController(ControllerGains.standard());
        final ControllerState state = new ControllerState();
        final ControllerState next = new ControllerState();
        final ControlCommand out = new ControlCommand();
        int mismatches = 0;
        for (int i = 0; i < CYCLES; i++)
        {
            state.set(integrator[i]);
            replay.step(state, samples[i], setpoints[i], next, out);
            mismatches += out.sameBitsAs(commands[i]) ? 0 : 1;
            if (i + 1 < CYCLES && Double.doubleToRawLongBits(next.integratorNm()) !=
                Double.doubleToRawLongBits(integrator[i + 1]))
            {
                mismatches++;
            }
        }
        assertThat(mismatches).isZero();
    }

    /**
     * The demo in closed loop; every output as raw bits: position, velocity, torque, integrator per cycle.
     */
    private static long[] run()
    {
        final DemoProfile demo = DemoProfile.standard();
        final ClosedLoop loop = new ClosedLoop(0);
        final long[] bits = new long[CYCLES * 4];
        loop.run(CYCLES, demo::setpoint, (k, t, s, sp, c) ->
        {
            final int i = (int)k * 4;
            bits[i] = Double.doubleToRawLongBits(s.position());
            bits[i + 1] = Double.doubleToRawLongBits(s.velocity());
            bits[i + 2] = Double.doubleToRawLongBits(c.torqueNm());
            bits[i + 3] = Double.doubleToRawLongBits(loop.state.integratorNm());
        });
        return bits;
    }
}
