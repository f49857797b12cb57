package io.rfmrt.control.node;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rfmrt.control.law.CascadedPidLaw;
import io.rfmrt.control.law.PdFeedForwardLaw;
import io.rfmrt.runtime.AppSettings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller's {@code app:} section picks its law: the shipped one by default, another by class with its own
 * settings, and one line naming the key for a law that cannot be had or refuses its settings.
 */
class ControllerSettingsTest
{
    private static ControllerApp configure(final String yaml, final List<String> problems) throws Exception
    {
        final ObjectNode tree = (ObjectNode)new ObjectMapper(new YAMLFactory()).readTree(yaml);
        final ControllerApp app = new ControllerApp();
        app.configure(new AppSettings("app", tree, problems));
        return app;
    }

    private static ControllerApp configure(final String yaml, final List<String> problems, final List<String> warnings)
        throws Exception
    {
        final ObjectNode tree = (ObjectNode)new ObjectMapper(new YAMLFactory()).readTree(yaml);
        final ControllerApp app = new ControllerApp();
        app.configure(new AppSettings("app", tree, problems, warnings));
        return app;
    }

    @Test
    void shouldReadDurationsWithTheirUnitAndTheOldKeysWithAWarning() throws Exception
    {
        final List<String> problems = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        final ControllerApp app = configure("brakeReleaseTimeout: 150ms\nfollowingErrorFilter: 0.02s\n" +
            "stallAt: 10\nstall: 1ms\n", problems, warnings);
        assertThat(problems).isEmpty();
        assertThat(warnings).isEmpty();
        assertThat(app.settings().brakeReleaseTimeoutMs()).isEqualTo(150.0);
        assertThat(app.settings().followingErrorFilterMs()).isEqualTo(20.0);
        assertThat(app.settings().stallNanos()).isEqualTo(1_000_000L);

        final ControllerApp old = configure("brakeReleaseTimeoutMs: 150\nstallAt: 10\nstallNanos: 1000000\n", problems,
            warnings);
        assertThat(problems).isEmpty();
        assertThat(warnings).containsExactly(
            "app.brakeReleaseTimeoutMs: 150 is deprecated, write app.brakeReleaseTimeout: 150ms",
            "app.stallNanos: 1000000 is deprecated, write app.stall: 1000000ns");
        assertThat(old.settings().brakeReleaseTimeoutMs()).isEqualTo(150.0);
        assertThat(old.settings().stallNanos()).isEqualTo(1_000_000L);
    }

    @Test
    void shouldRefuseADurationWithoutItsUnitOrGivenUnderBothKeys() throws Exception
    {
        final List<String> problems = new ArrayList<>();
        configure("brakeReleaseTimeout: 200\n", problems);
        configure("brakeReleaseTimeoutMs: 200\nbrakeReleaseTimeout: 200ms\n", problems);
        configure("brakeReleaseTimeout: soon\n", problems);
        assertThat(problems).containsExactly(
            "app.brakeReleaseTimeout '200' is not a duration with its unit (e.g. 200ms, 1s)",
            "app.brakeReleaseTimeoutMs is the old key of app.brakeReleaseTimeout: give app.brakeReleaseTimeout alone",
            "app.brakeReleaseTimeout 'soon' is not a duration with its unit (e.g. 200ms, 1s)");
    }

    @Test
    void shouldHostTheShippedLawByDefaultWithItsGainsAtTheRate() throws Exception
    {
        final List<String> problems = new ArrayList<>();
        final ControllerApp app = configure("rateHz: 2000\ngains: {positionGainPerS: 60}\n", problems);
        assertThat(problems).isEmpty();
        assertThat(app.law()).isInstanceOf(CascadedPidLaw.class);
        assertThat(((CascadedPidLaw)app.law()).gains().positionGainPerS()).isEqualTo(60.0);
        assertThat(((CascadedPidLaw)app.law()).gains().periodSeconds()).isEqualTo(0.5e-3);
    }

    @Test
    void shouldHostALawByClassWithItsOwnSettings() throws Exception
    {
        final List<String> problems = new ArrayList<>();
        final ControllerApp app = configure("law: " + PdFeedForwardLaw.class.getName() +
            "\ngains: {kpNmPerRad: 8, torqueLimitNm: 0.4}\n", problems);
        assertThat(problems).isEmpty();
        assertThat(app.law()).isInstanceOf(PdFeedForwardLaw.class);
        assertThat(app.law().torqueLimitNm()).isEqualTo(0.4);
        assertThat(app.settings().law()).isEqualTo(PdFeedForwardLaw.class.getName());
    }

    @Test
    void shouldNameALawThatCannotBeHadOrRefusesItsSettings() throws Exception
    {
        final List<String> problems = new ArrayList<>();
        configure("law: com.acme.Missing\n", problems);
        configure("law: " + PdFeedForwardLaw.class.getName() + "\ngains: {kp: 1}\n", problems);
        configure("gains: {kp: 3}\n", problems);
        assertThat(problems).hasSize(3);
        assertThat(problems.get(0)).startsWith("app.law 'com.acme.Missing': no such class on the class path");
        assertThat(problems.get(1)).startsWith("app.gains.kp: unknown (known: ");
        assertThat(problems.get(2)).startsWith("app.gains: unknown key 'kp'");
    }
}
