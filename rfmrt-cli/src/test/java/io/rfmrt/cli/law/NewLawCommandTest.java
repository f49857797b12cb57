package io.rfmrt.cli.law;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code rfmrt new-law}: the project it makes builds and passes its tests with Maven, runs in the demo against the
 * built-in plant with {@code --app-jar}, and re-runs bit for bit from its journal — the commands its README gives;
 * bad input is one line and writes nothing.
 */
class NewLawCommandTest
{
    @TempDir
    Path tmp;

    @Test
    void shouldRefuseBadInputInOneLineAndWriteNothing() throws IOException
    {
        final Path lib = rfmrtLib();
        assertRefused(List.of("new-law", "--class", "MyLaw", "--rfmrt-lib", lib.toString()),
            "rfmrt: --class 'MyLaw' is not a class name with a package (e.g. com.acme.MyLaw)");
        assertRefused(List.of("new-law", "--class", "com.acme.class.MyLaw", "--rfmrt-lib", lib.toString()),
            "rfmrt: --class 'com.acme.class.MyLaw' is not a class name with a package (e.g. com.acme.MyLaw)");
        Files.createDirectories(tmp.resolve("full"));
        Files.writeString(tmp.resolve("full/notes.txt"), "mine\n");
        assertRefused(List.of("new-law", "--class", "com.acme.MyLaw", "--dir", tmp.resolve("full").toString(),
            "--rfmrt-lib", lib.toString()), "rfmrt: --dir " + tmp.resolve("full") + ": not empty");
        assertThat(Files.readString(tmp.resolve("full/notes.txt"))).isEqualTo("mine\n");
        assertRefused(List.of("new-law", "--class", "com.acme.MyLaw", "--dir", tmp.resolve("p").toString(),
            "--rfmrt-lib", tmp.toString()), "rfmrt: --rfmrt-lib " + tmp + ": no control-loop-");
        assertThat(tmp.resolve("p")).doesNotExist();
        assertThat(NewLawCommand.artifactOf("MyLaw")).isEqualTo("my-law");
        assertThat(NewLawCommand.artifactOf("PIDLaw2")).isEqualTo("pidlaw2");
    }

    @Test
    void shouldMakeAProjectThatBuildsRunsAgainstThePlantAndReRunsBitForBit() throws Exception
    {
        final Path project = tmp.resolve("my-law");
        final CliRun made = CliRun.of("new-law", "--class", "com.acme.MyLaw", "--dir", project.toString(),
            "--rfmrt-lib", rfmrtLib().toString());
        assertThat(made.exit()).as(made.err()).isZero();
        assertThat(made.out()).startsWith("made " + project + ": the law com.acme.MyLaw")
            .contains("mvn -f " + project + " verify");
        assertThat(project.resolve("src/main/java/com/acme/MyLaw.java")).exists();
        assertThat(project.resolve("src/test/java/com/acme/MyLawTest.java")).exists();
        assertThat(Files.readString(project.resolve("README.md"))).contains("--law com.acme.MyLaw --app-jar");

        final String mvn = onPath("mvn");
        assumeTrue(mvn != null, "Maven (mvn) is not on the PATH: the made project cannot be built here");
        // not offline: what this build has not fetched (a plugin of the project's own) comes from the registry
        final Process build = new ProcessBuilder(mvn, "-B", "-q", "-f", project.toString(), "verify")
            .redirectErrorStream(true).start();
        final String buildLog = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(build.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(build.exitValue()).as(buildLog).isZero();
        final Path jar = project.resolve("target/my-law-1.0.jar");
        assertThat(jar).exists();

        final Path simRoot = Files.createDirectories(tmp.resolve("sim"));
        final Path demo = tmp.resolve("demo");
        final String[] run = {"demo", "--seconds", "2", "--out", demo.toString(), "--law", "com.acme.MyLaw",
            "--app-jar", jar.toString()};
        final Process node = CliProcesses.start(simRoot, ProcessBuilder.Redirect.PIPE, run);
        final String demoOut = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String demoErr = new String(node.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(node.exitValue()).as(demoOut + demoErr).isZero();
        assertThat(Files.readString(demo.resolve("controller.yaml"))).contains("com.acme.MyLaw");

        final Process rerun = CliProcesses.start(simRoot, ProcessBuilder.Redirect.PIPE, "replay", demo.toString(),
            "--rerun", "--law", "com.acme.MyLaw", "--app-jar", jar.toString());
        final String rerunOut = new String(rerun.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String rerunErr = new String(rerun.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(rerun.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(rerun.exitValue()).as(rerunOut + rerunErr).isZero();
        assertThat(rerunOut).containsPattern("rerun \\(law com\\.acme\\.MyLaw\\): [0-9,]+ cycles, [0-9,]+ compared " +
            "\\([1-9][0-9,]* RUNNING\\), 0 divergences");
    }

    private void assertRefused(final List<String> args, final String line)
    {
        final CliRun run = CliRun.of(args.toArray(String[]::new));
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith(line).doesNotContain("\tat ");
        assertThat(run.err().strip().lines()).hasSize(1);
    }

    /**
     * The rfmrt jars a made project builds against, as a release's lib/ holds them: this test's class path has them
     * as jars (a reactor build that packaged them) or as class folders, which are packed here.
     */
    private Path rfmrtLib() throws IOException
    {
        final Path lib = Files.createDirectories(tmp.resolve("lib"));
        final java.util.Properties versions = new java.util.Properties();
        try (var in = NewLawCommand.class.getResourceAsStream("/io/rfmrt/cli/law/versions.properties"))
        {
            versions.load(in);
        }
        final String version = versions.getProperty("rfmrt");
        for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator))
        {
            final Path path = Path.of(entry);
            if (entry.contains("test-classes") || entry.endsWith("-tests.jar"))
            {
                continue;
            }
            for (final String module : List.of("rfm-driver", "rt-runtime", "control-loop"))
            {
                if (path.toString().contains(File.separator + module + File.separator) ||
                    path.getFileName().toString().startsWith(module + "-"))
                {
                    final Path target = lib.resolve(module + "-" + version + ".jar");
                    if (Files.exists(target))
                    {
                        continue;
                    }
                    if (Files.isDirectory(path))
                    {
                        pack(path, target);
                    }
                    else if (Files.isRegularFile(path))
                    {
                        Files.copy(path, target);
                    }
                }
            }
            if (path.getFileName().toString().equals("agrona-" + versions.getProperty("agrona") + ".jar"))
            {
                Files.copy(path, lib.resolve(path.getFileName()));
            }
        }
        return lib;
    }

    private static void pack(final Path classes, final Path jar) throws IOException
    {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
            Stream<Path> paths = Files.walk(classes))
        {
            for (final Path p : paths.filter(Files::isRegularFile).toList())
            {
                out.putNextEntry(new JarEntry(classes.relativize(p).toString().replace(File.separatorChar, '/')));
                Files.copy(p, out);
                out.closeEntry();
            }
        }
    }

    private static String onPath(final String tool)
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        {
            final Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate))
            {
                return candidate.toString();
            }
        }
        return null;
    }
}
