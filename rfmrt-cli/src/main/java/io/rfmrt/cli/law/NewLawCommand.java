package io.rfmrt.cli.law;

import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.control.ControlLaw;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import javax.lang.model.SourceVersion;

/**
 * {@code rfmrt new-law --class com.acme.MyLaw [--dir DIR]}: makes a Maven project for a control law of one's own: a
 * working law to start from (a P position loop around a P velocity loop with feed-forward), its JUnit test on the
 * closed-loop harness (tracking, bad settings, zero allocation) and a README with the commands that build it, run it
 * against the demo's plant and re-run it from its journal. The project compiles against the rfmrt jars this command
 * runs from (a checkout's {@code rfmrt-cli/target/lib}, a release's {@code lib/}), so nothing needs installing.
 * <p>
 * Exit codes: 0 made, 2 bad input (one line: the class name, a folder that is not empty, no rfmrt jars to build
 * against); nothing is written then.
 */
@Command(name = "new-law", mixinStandardHelpOptions = true,
    description = {"Make a Maven project for a control law of your own: the law, its closed-loop test and the " +
        "commands that build it, run it against the demo's plant and re-run it (docs/extending.md)."},
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_USAGE})
public final class NewLawCommand implements Callable<Integer>
{
    private static final String TEMPLATES = "/io/rfmrt/cli/law/";
    private static final Pattern ARTIFACT = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

    @Spec
    CommandSpec spec;

    @Option(names = "--class", required = true, paramLabel = "CLASS",
        description = "The law's class, with its package (e.g. com.acme.MyLaw).")
    String className;

    @Option(names = "--dir", paramLabel = "DIR",
        description = "Where to make the project (missing or empty; default: the class's name in lower case with " +
            "hyphens, e.g. my-law).")
    Path dir;

    @Option(names = "--rfmrt-lib", paramLabel = "DIR",
        description = "The rfmrt jars the project builds against (default: those this rfmrt runs from, a " +
            "checkout's rfmrt-cli/target/lib or a release's lib/).")
    Path rfmrtLib;

    @Override
    public Integer call()
    {
        final int dot = className.lastIndexOf('.');
        if (dot <= 0 || !SourceVersion.isName(className) || className.chars().anyMatch(c -> c > 127))
        {
            throw new UsageException("--class '" + className + "' is not a class name with a package " +
                "(e.g. com.acme.MyLaw)");
        }
        final String packageName = className.substring(0, dot);
        final String simpleName = className.substring(dot + 1);
        final String artifact = artifactOf(simpleName);
        if (!ARTIFACT.matcher(artifact).matches())
        {
            throw new UsageException("--class '" + className + "': the project's name '" + artifact + "' made from " +
                "it is not lower-case letters, digits and hyphens");
        }
        final Path project = (dir != null ? dir : Path.of(artifact)).toAbsolutePath().normalize();
        if (Files.exists(project) && !(Files.isDirectory(project) && isEmpty(project)))
        {
            throw new UsageException("--dir " + project + ": " + (Files.isDirectory(project) ? "not empty" :
                "not a folder"));
        }
        final Path lib = rfmrtLib != null ? givenLib(rfmrtLib) : rfmrtLib();
        final Properties versions = versions();
        final Map<String, String> values = new LinkedHashMap<>();
        values.put("@PACKAGE@", packageName);
        values.put("@CLASS@", simpleName);
        values.put("@GROUP@", packageName);
        values.put("@ARTIFACT@", artifact);
        values.put("@LIB@", lib.toString());
        values.put("@RFMRT_VERSION@", versions.getProperty("rfmrt"));
        values.put("@AGRONA_VERSION@", versions.getProperty("agrona"));
        values.put("@JUNIT_VERSION@", versions.getProperty("junit"));
        values.put("@ASSERTJ_VERSION@", versions.getProperty("assertj"));
        values.put("@DIR@", project.toString());
        values.put("@RFMRT@", launcher(lib));
        final String sourcePath = packageName.replace('.', '/') + "/" + simpleName;
        final Map<String, String> files = new LinkedHashMap<>();
        files.put("pom.xml", "pom.xml.template");
        files.put("README.md", "README.md.template");
        files.put("src/main/java/" + sourcePath + ".java", "Law.java.template");
        files.put("src/test/java/" + sourcePath + "Test.java", "LawTest.java.template");
        try
        {
            for (final Map.Entry<String, String> file : files.entrySet())
            {
                final Path path = project.resolve(file.getKey());
                Files.createDirectories(path.getParent());
                Files.writeString(path, fill(template(file.getValue()), values));
            }
        }
        catch (final IOException ex)
        {
            throw new UsageException("--dir " + project + ": cannot write the project (" + ex.getMessage() + ")");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final String jar = project.resolve("target").resolve(artifact + "-1.0.jar").toString();
        out.printf("made %s: the law %s, its test, pom.xml (built against the rfmrt jars in %s) and README.md%n",
            project, className, lib);
        out.println("next:");
        out.printf("  mvn -f %s verify%n", project);
        out.printf("  %s demo --seconds 5 --law %s --app-jar %s%n", values.get("@RFMRT@"), className, jar);
        out.printf("  %s replay rfmrt-demo --rerun --law %s --app-jar %s%n", values.get("@RFMRT@"), className, jar);
        out.flush();
        return ExitCodes.OK;
    }

    /**
     * @param simpleName a class's simple name, e.g. {@code MyLaw}.
     * @return a project name made of it, e.g. {@code my-law}.
     */
    static String artifactOf(final String simpleName)
    {
        return simpleName.replaceAll("([a-z0-9])([A-Z])", "$1-$2").replace('_', '-').toLowerCase(Locale.ROOT);
    }

    /**
     * @return the folder of the rfmrt jars this process runs from (where {@code control-loop}'s jar is).
     */
    private static Path rfmrtLib()
    {
        final CodeSource source = ControlLaw.class.getProtectionDomain().getCodeSource();
        Path jar = null;
        try
        {
            jar = source == null ? null : Path.of(source.getLocation().toURI());
        }
        catch (final URISyntaxException | IllegalArgumentException ex)
        {
            // not a file: refused below
        }
        if (jar == null || !Files.isRegularFile(jar) || jar.getParent() == null ||
            !Files.isRegularFile(jar.getParent().resolve("rt-runtime-" + versions().getProperty("rfmrt") + ".jar")))
        {
            throw new UsageException("new-law: no rfmrt jars to build against (rfmrt runs from " +
                (jar == null ? "an unknown place" : jar) + "; run it as ./rfmrt in a checkout or bin/rfmrt in a " +
                "release)");
        }
        return jar.getParent();
    }

    /**
     * @param lib a folder given as {@code --rfmrt-lib}.
     * @return it, absolute, when it holds the rfmrt jars the project names.
     */
    private static Path givenLib(final Path lib)
    {
        final String version = versions().getProperty("rfmrt");
        for (final String jar : List.of("control-loop-" + version + ".jar", "rt-runtime-" + version + ".jar",
            "rfm-driver-" + version + ".jar", "agrona-" + versions().getProperty("agrona") + ".jar"))
        {
            if (!Files.isRegularFile(lib.resolve(jar)))
            {
                throw new UsageException("--rfmrt-lib " + lib + ": no " + jar + " in it");
            }
        }
        return lib.toAbsolutePath().normalize();
    }

    /**
     * @param lib the rfmrt jars' folder.
     * @return the command that runs rfmrt beside them: a checkout's {@code ./rfmrt} by its path, else {@code rfmrt}.
     */
    private static String launcher(final Path lib)
    {
        // a checkout: ROOT/rfmrt-cli/target/lib, with the launcher at ROOT/rfmrt; a release: ROOT/lib, ROOT/bin/rfmrt
        final List<Path> candidates = List.of(lib.resolve("../../../rfmrt").normalize(),
            lib.resolve("../bin/rfmrt").normalize());
        for (final Path launcher : candidates)
        {
            if (Files.isRegularFile(launcher) && Files.isExecutable(launcher))
            {
                return launcher.toString();
            }
        }
        return "rfmrt";
    }

    private static boolean isEmpty(final Path folder)
    {
        try (var entries = Files.list(folder))
        {
            return entries.findAny().isEmpty();
        }
        catch (final IOException ex)
        {
            throw new UsageException("--dir " + folder + ": cannot read it (" + ex.getMessage() + ")");
        }
    }

    private static Properties versions()
    {
        final Properties versions = new Properties();
        try (InputStream in = NewLawCommand.class.getResourceAsStream(TEMPLATES + "versions.properties"))
        {
            if (in == null)
            {
                throw new IllegalStateException("versions.properties is missing from this build");
            }
            versions.load(in);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return versions;
    }

    private static String template(final String name) throws IOException
    {
        try (InputStream in = NewLawCommand.class.getResourceAsStream(TEMPLATES + name))
        {
            if (in == null)
            {
                throw new IOException("the template " + name + " is missing from this build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * @param text   a template.
     * @param values {@code @NAME@} → value.
     * @return the text with every {@code @NAME@} replaced.
     */
    static String fill(final String text, final Map<String, String> values)
    {
        String filled = text;
        for (final Map.Entry<String, String> value : values.entrySet())
        {
            filled = filled.replace(value.getKey(), value.getValue());
        }
        return filled;
    }
}
