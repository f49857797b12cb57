package io.rfmrt.cli.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rfmrt.cli.common.AppJars;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.law.ControlLaws;
import io.rfmrt.control.replay.ControlRerun;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code rfmrt replay --rerun --law CLASS}: re-runs a law given by class over the recorded control cycles, configured
 * with the settings the node ran with ({@code --recorded-gains}, the node's {@code app.gains} mapping as a YAML file).
 */
public final class ReplayLaw
{
    private ReplayLaw()
    {
    }

    /**
     * @param control       the recorded cycles.
     * @param lawName       the law's class name (or {@code cascaded-pid}).
     * @param settingsFile  its settings (YAML mapping), or null for none.
     * @param periodSeconds the loop period, s.
     * @return the rerun's figures, as {@code --rerun} prints them.
     */
    static ReplayCommand.Rerun rerun(final ControlRerun control, final String lawName, final Path settingsFile,
        final double periodSeconds)
    {
        final ControlLaw law;
        try
        {
            law = ControlLaws.create(lawName, AppJars.loader());
            law.configure(settings(settingsFile), periodSeconds);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("--law " + lawName + ": " + ex.getMessage());
        }
        return ReplayCommand.Rerun.of("recorded", ControlLaws.nameOf(law), control.compare(law, periodSeconds));
    }

    /**
     * @param file a law's settings (YAML mapping), or null.
     * @return them, for {@link ControlLaw#configure}; empty for none.
     * @throws UsageException naming the file when it is not a readable mapping.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> settings(final Path file)
    {
        if (file == null)
        {
            return Map.of();
        }
        try
        {
            final Object yaml = new ObjectMapper(new YAMLFactory()).readValue(file.toFile(), Object.class);
            if (yaml == null)
            {
                return Map.of();
            }
            if (!(yaml instanceof Map))
            {
                throw new UsageException(file + ": not a mapping of settings");
            }
            return (Map<String, Object>)yaml;
        }
        catch (final IOException ex)
        {
            throw new UsageException(file + ": " + String.valueOf(ex.getMessage()).lines().findFirst()
                .orElse("unreadable"));
        }
    }
}
