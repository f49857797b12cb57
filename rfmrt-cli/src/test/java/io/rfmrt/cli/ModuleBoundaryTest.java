package io.rfmrt.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The modules' import rules, read from the sources: dependencies point one way
 * ({@code rfmrt-cli → control-loop → rt-runtime → rfm-driver}, {@code rfmrt-cli → rfm-bridge → rfm-driver}), and no
 * module reaches into another module's {@code internal} packages. The bridge keeps the driver's package root (its
 * packages are {@code io.rfmrt.rfm.bridge} and {@code io.rfmrt.rfm.internal.bridge}), so it may use the emulator's
 * internals; the driver must not name a bridge package (the emulator reaches the bridge through
 * {@code io.rfmrt.rfm.sim.HostBridge}). The runtime and the control loop reach the driver through its public API,
 * never the emulator's {@code io.rfmrt.rfm.sim} (they make a network by opening a {@code sim:} URI). A file that
 * breaks a rule is named with the import it uses.
 */
class ModuleBoundaryTest
{
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(io\\.rfmrt\\.[\\w.]+);", Pattern.MULTILINE);

    /** Module folder, its own package root, the package roots it must not import. */
    private static final String[][] RULES = {
        {"rfm-driver", "io.rfmrt.rfm",
            "io.rfmrt.rfm.bridge io.rfmrt.rfm.internal.bridge io.rfmrt.runtime io.rfmrt.control io.rfmrt.cli"},
        {"rfm-bridge", "io.rfmrt.rfm", "io.rfmrt.runtime io.rfmrt.control io.rfmrt.cli"},
        {"rt-runtime", "io.rfmrt.runtime", "io.rfmrt.rfm.sim io.rfmrt.control io.rfmrt.cli"},
        {"control-loop", "io.rfmrt.control", "io.rfmrt.rfm.sim io.rfmrt.cli"},
        {"rfmrt-cli", "io.rfmrt.cli", ""}};

    @Test
    void shouldImportOnlyDownwardAndNeverAnotherModulesInternals() throws IOException
    {
        final List<String> broken = new ArrayList<>();
        for (final String[] rule : RULES)
        {
            final Path sources = Path.of("..", rule[0], "src", "main", "java");
            assertThat(sources).as("sources of " + rule[0]).isDirectory();
            try (Stream<Path> files = Files.walk(sources))
            {
                for (final Path file : files.filter(f -> f.toString().endsWith(".java")).toList())
                {
                    final Matcher m = IMPORT.matcher(Files.readString(file));
                    while (m.find())
                    {
                        final String imported = m.group(1);
                        for (final String banned : rule[2].split(" "))
                        {
                            if (!banned.isEmpty() && imported.startsWith(banned + "."))
                            {
                                broken.add(rule[0] + ": " + file.getFileName() + " imports " + imported);
                            }
                        }
                        if (!imported.startsWith(rule[1] + ".") && imported.contains(".internal."))
                        {
                            broken.add(rule[0] + ": " + file.getFileName() + " imports another module's " + imported);
                        }
                    }
                }
            }
        }
        assertThat(broken).as("imports against the module rules").isEmpty();
    }
}
