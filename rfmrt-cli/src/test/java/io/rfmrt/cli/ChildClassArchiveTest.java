package io.rfmrt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The children's class-data-sharing archive: made and used in this build, and when it cannot be made, the plain class
 * path with one line saying why, said again (not retried) by the next test JVM of the same build.
 */
class ChildClassArchiveTest
{
    @TempDir
    Path tmp;

    @Test
    void shouldStartTheChildrenOnAnArchiveTheyMap()
    {
        final List<String> args = ChildClassArchive.classpathArgs();

        // a silent fall-back would leave every process test correct and slower: this build must have its archive
        assertThat(args).hasSize(3);
        assertThat(args.get(0)).startsWith("-XX:SharedArchiveFile=");
        assertThat(Path.of(args.get(0).substring("-XX:SharedArchiveFile=".length()))).isRegularFile();
        assertThat(args.get(1)).isEqualTo("-cp");
        assertThat(args.get(2).split(":")).allMatch(jar -> jar.endsWith(".jar"));
    }

    @Test
    void shouldFallBackToThePlainClassPathSayingWhyWhenTheDumpFails() throws IOException
    {
        // a module's test classes without the training class: the dump's JVM cannot find its main and exits 1
        final Path classes = Files.createDirectories(tmp.resolve("module/target/test-classes"));
        Files.writeString(classes.resolve("notes.txt"), "not a class");
        final String classpath = classes.toString();

        final String firstLine = fallBackLine(classpath);

        assertThat(firstLine).startsWith("child JVMs without a class-data-sharing archive: the dump exited 1 (");
        final Path failed = failureFile(tmp.resolve("module/target/child-cds"));
        assertThat(Files.readString(failed)).startsWith("the dump exited 1 (");
        final Path dumpLog = failed.resolveSibling("dump.log");
        assertThat(Files.readString(dumpLog)).contains(ChildClassArchive.LoadEveryClass.class.getName());
        Files.delete(dumpLog);

        // the next test JVM of the same build: the same fall-back and reason, without a second dump
        final String secondLine = fallBackLine(classpath);

        assertThat(secondLine).startsWith("child JVMs without a class-data-sharing archive: the dump exited 1 (")
            .contains("(an earlier try, " + failed + ")");
        assertThat(dumpLog).doesNotExist();
    }

    @Test
    void shouldLeaveAClassPathThatIsNotATestBuildAsItIs()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final String classpath = tmp.resolve("absent.jar").toString();

        assertThat(ChildClassArchive.make(classpath, new PrintStream(err, true, StandardCharsets.UTF_8)))
            .containsExactly("-cp", classpath);
        assertThat(err.size()).isZero();
        assertThat(tmp.resolve("child-cds")).doesNotExist();
    }

    /** {@code make} on a class path it cannot archive: the plain class path back, and the one line it said. */
    private static String fallBackLine(final String classpath)
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(ChildClassArchive.make(classpath, new PrintStream(err, true, StandardCharsets.UTF_8)))
            .containsExactly("-cp", classpath);
        final String line = err.toString(StandardCharsets.UTF_8);
        assertThat(line.lines()).hasSize(1);
        return line;
    }

    private static Path failureFile(final Path home) throws IOException
    {
        try (Stream<Path> files = Files.walk(home))
        {
            final List<Path> found = files.filter(f -> f.getFileName().toString().equals(ChildClassArchive.FAILED))
                .toList();
            assertThat(found).hasSize(1);
            return found.get(0);
        }
    }
}
