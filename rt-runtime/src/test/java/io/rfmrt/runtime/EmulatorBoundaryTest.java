package io.rfmrt.runtime;

import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime reaches the driver through its public API only: no compiled class of rt-runtime names a class of the
 * emulator ({@code io.rfmrt.rfm.sim}) or of the driver's {@code internal} packages. Read from the class files'
 * constant pools, so a fully qualified name in the code counts as much as an import.
 */
class EmulatorBoundaryTest
{
    /**
     * Package prefixes the runtime's classes must not name, as the class files spell them (made at run time: as
     * literals they would be in this class's own constant pool).
     */
    private static final String[] BANNED = Stream.of("io.rfmrt.rfm.sim.", "io.rfmrt.rfm.internal.")
        .map(p -> p.replace('.', '/')).toArray(String[]::new);
    private static final Class<?> EMULATOR = SimNetwork.class;

    @Test
    void shouldNameNothingOfTheEmulatorOrTheDriversInternalsInAnyRuntimeClass() throws Exception
    {
        final Path classes = folderOf(ReceivePath.class);
        final List<Path> files;
        try (Stream<Path> walk = Files.walk(classes))
        {
            files = walk.filter(f -> f.toString().endsWith(".class")).toList();
        }
        assertThat(files).as("the runtime's classes")
            .contains(classes.resolve("io/rfmrt/runtime/ReceiveWarmUp.class"));

        final List<String> named = new ArrayList<>();
        for (final Path file : files)
        {
            for (final String banned : bannedIn(file))
            {
                named.add(classes.relativize(file) + " names " + banned);
            }
        }
        assertThat(named).as("runtime classes that reach into the driver's emulator or internals").isEmpty();
    }

    @Test
    void shouldFindSuchANameWhereAClassHasOne() throws Exception
    {
        // the check's own check: this class names the emulator's network class (a test may)
        assertThat(EMULATOR.getName().replace('.', '/')).startsWith(BANNED[0]);
        final Path self = folderOf(EmulatorBoundaryTest.class).resolve("io/rfmrt/runtime/EmulatorBoundaryTest.class");

        assertThat(bannedIn(self)).containsExactly(BANNED[0]);
    }

    private static Path folderOf(final Class<?> type) throws URISyntaxException
    {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static List<String> bannedIn(final Path classFile) throws IOException
    {
        // class names in a constant pool are modified UTF-8, the same bytes as ASCII for these names
        final String text = new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
        final List<String> found = new ArrayList<>();
        for (final String banned : BANNED)
        {
            if (text.contains(banned))
            {
                found.add(banned);
            }
        }
        return found;
    }
}
