package io.rfmrt.cli.rfm;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.CliRun;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Network folders in a hostile {@code /dev/shm}: only names, nothing removed that is not the network's, no symbolic
 * link followed, no root trusted that another user owns or every user may write. The attacker is the {@code nobody}
 * user (these tests need root to become it; they are skipped otherwise).
 */
class NetworkFolderTest
{
    private static final String NL = System.lineSeparator();

    private Path root;
    private Path victim;

    @BeforeEach
    void setUp() throws IOException
    {
        final String id = UUID.randomUUID().toString();
        root = Path.of("/dev/shm", "rfmrt-folder-test-" + id);
        victim = Files.createDirectory(Path.of("/tmp", "rfmrt-folder-victim-" + id));
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
    }

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(root);
        CliProcesses.removeTree(victim);
    }

    private static CliRun run(final String... args)
    {
        return CliRun.of(args);
    }

    private static void assertOneLine(final CliRun result, final int exit, final String... parts)
    {
        assertThat(result.exit()).as(result.err()).isEqualTo(exit);
        assertThat(result.err()).startsWith("rfmrt: ").endsWith(NL);
        assertThat(result.err().lines().count()).as(result.err()).isEqualTo(1);
        for (final String part : parts)
        {
            assertThat(result.err()).contains(part);
        }
    }

    private static boolean isRoot() throws IOException
    {
        return (Integer)Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0 &&
            Files.isExecutable(Path.of("/usr/bin/setpriv"));
    }

    /** Runs a shell script as the unprivileged user {@code nobody}. */
    private static int asNobody(final String script) throws IOException, InterruptedException
    {
        final Process p = new ProcessBuilder("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
            "/bin/bash", "-c", script).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        System.out.print(out);
        return p.exitValue();
    }

    @Test
    void shouldRemoveOnlyTheNetworksOwnFilesAndKeepAFolderThatHoldsOthers() throws IOException
    {
        assertThat(run("rfm", "create", "--network", "lab", "--size", "4K").exit()).isZero();
        final Path dir = root.resolve("lab");
        Files.writeString(dir.resolve("notes.txt"), "x\n");
        final CliRun destroy = run("rfm", "destroy", "--network", "lab");
        assertThat(destroy.exit()).as(destroy.err()).isZero();
        assertThat(destroy.out()).isEqualTo("destroyed network lab; kept its folder " + dir +
            ", which holds files that are not the network's: 'notes.txt'" + NL);
        assertThat(Files.readString(dir.resolve("notes.txt"))).isEqualTo("x\n");
        try (var files = Files.list(dir))
        {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("notes.txt");
        }

        assertThat(run("rfm", "create", "--network", "clean", "--size", "4K").exit()).isZero();
        assertThat(run("rfm", "destroy", "--network", "clean").out()).isEqualTo("destroyed network clean" + NL);
        assertThat(root.resolve("clean")).doesNotExist();
    }

    @Test
    void shouldRefuseAFolderAsNetworkNameAndTakeTheRootSeparately() throws IOException
    {
        Files.writeString(victim.resolve("notes.txt"), "x\n");
        assertOneLine(run("rfm", "create", "--network", victim.toString(), "--size", "4K"), 2,
            "network name '" + victim + "' is a path; give a name and choose the folder with --root or RFMRT_SIM_ROOT");
        assertOneLine(run("rfm", "destroy", "--network", victim.toString()), 2, "is a path");
        assertThat(victim.resolve("notes.txt")).exists();
        assertThat(root).doesNotExist();

        final Path other = victim.resolve("networks");
        final CliRun created = run("rfm", "create", "--root", other.toString(), "--network", "lab", "--size", "4K");
        assertThat(created.exit()).as(created.err()).isZero();
        assertThat(other.resolve("lab").resolve("control")).exists();
        assertThat(run("rfm", "destroy", "--root", other.toString(), "--network", "lab").exit()).isZero();
        assertThat(other.resolve("lab")).doesNotExist();
    }

    @Test
    void shouldRefuseARootPlantedByAnotherUser() throws Exception
    {
        assumeTrue(isRoot(), "needs root to act as the user nobody");
        Files.setPosixFilePermissions(victim, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(asNobody("mkdir -m777 " + root + " && ln -s " + victim + " " + root + "/lab")).isZero();

        assertOneLine(run("rfm", "create", "--network", "lab", "--size", "4K"), 1,
            "emulator root " + root + " belongs to uid 65534, not to this user (uid 0) or root",
            "choose another folder with --root or RFMRT_SIM_ROOT");
        assertOneLine(run("rfm", "destroy", "--network", "lab"), 1, "belongs to uid 65534");
        assertOneLine(run("rfm", "poke", "--network", "lab", "--node", "1", "--offset", "0", "--value", "1"), 1,
            "belongs to uid 65534");
        try (var files = Files.list(victim))
        {
            assertThat(files.toList()).as("nothing written through the planted link").isEmpty();
        }
    }

    @Test
    void shouldRefuseARootThatEveryUserMayWrite() throws IOException
    {
        Files.createDirectory(root);
        Files.setPosixFilePermissions(root, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        assertOneLine(run("rfm", "create", "--network", "lab", "--size", "4K"), 1,
            "emulator root " + root + " is writable by every user (mode 0777)", "make it yours with mode 0770");
        assertThat(root.resolve("lab")).doesNotExist();
    }

    @Test
    void shouldRefuseANetworkFolderThatIsASymbolicLink() throws IOException
    {
        Files.createDirectory(root);
        Files.writeString(victim.resolve("notes.txt"), "x\n");
        Files.createSymbolicLink(root.resolve("lab"), victim);
        assertOneLine(run("rfm", "create", "--network", "lab", "--size", "4K"), 1,
            "network folder " + root.resolve("lab") + " is a symbolic link");
        assertOneLine(run("rfm", "destroy", "--network", "lab", "--force"), 1, "is a symbolic link");
        try (var files = Files.list(victim))
        {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("notes.txt");
        }
        assertThat(Files.isSymbolicLink(root.resolve("lab"))).isTrue();
    }

    @Test
    void shouldRefuseAControlBlockThatIsASymbolicLink() throws IOException
    {
        assertThat(run("rfm", "create", "--network", "lab", "--size", "4K").exit()).isZero();
        final Path control = root.resolve("lab").resolve("control");
        Files.delete(control);
        Files.writeString(victim.resolve("target"), "precious\n");
        Files.createSymbolicLink(control, victim.resolve("target"));
        assertOneLine(run("rfm", "status", "--network", "lab"), 1, "is a symbolic link");
        assertThat(Files.readString(victim.resolve("target"))).isEqualTo("precious\n");
    }

    @Test
    void shouldKeepOtherUsersFromRenamingOrAddingNetworkFolders() throws Exception
    {
        assumeTrue(isRoot(), "needs root to act as the user nobody");
        assertThat(run("rfm", "create", "--network", "lab", "--size", "4K").exit()).isZero();
        assertThat(asNobody("mv " + root + "/lab " + root + "/moved")).isNotZero();
        assertThat(asNobody("mkdir " + root + "/planted")).isNotZero();
        assertThat(asNobody("rm -rf " + root)).isNotZero();
        assertThat(root.resolve("lab").resolve("control")).exists();
        final int mode = (Integer)Files.getAttribute(root, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        assertThat(mode & 0777).isEqualTo(0770);
    }

    @Test
    void shouldRefuseAnOverflowingPokeWithoutCreatingANetwork()
    {
        assertOneLine(run("rfm", "poke", "--network", "new5", "--node", "1", "--offset", "7ffffffffffffffc",
            "--value", "1"), 2, "offset 0x7ffffffffffffffc + 4 bytes is outside the 16777216-byte memory");
        assertOneLine(run("rfm", "peek", "--network", "new5", "--node", "1", "--offset", "7ffffffffffffff8",
            "--width", "64", "--count", "2"), 2, "is outside");
        assertThat(root).doesNotExist();
    }

    @Test
    void shouldRemoveACorruptControlBlockWhenForced() throws IOException
    {
        assertThat(run("rfm", "create", "--network", "lab", "--size", "4K").exit()).isZero();
        final Path control = root.resolve("lab").resolve("control");
        Files.write(control, new byte[64]);
        assertOneLine(run("rfm", "destroy", "--network", "lab"), 1, "network 'lab'",
            "destroy --force removes it");
        assertThat(control).exists();
        final CliRun forced = run("rfm", "destroy", "--network", "lab", "--force");
        assertThat(forced.exit()).as(forced.err()).isZero();
        assertThat(root.resolve("lab")).doesNotExist();
    }

    @Test
    void shouldKeepAMessageAboutANameWithANewlineOnOneLine()
    {
        assertOneLine(run("rfm", "create", "--network", "lab\nrm -rf /"), 2,
            "network name 'lab\\nrm -rf /' is a path");
        assertOneLine(run("rfm", "create", "--network", "lab\nx"), 2,
            "network name 'lab\\nx' is not 1-64 letters");
        assertThat(root).doesNotExist();
    }

    @Test
    void shouldRefuseAnOverflowingTimeout()
    {
        for (final String timeout : List.of("18446744074", "9223372037", "1e300s"))
        {
            assertOneLine(run("rfm", "wait", "--network", "lab", "--node", "2", "--type", "INTR1", "--timeout",
                timeout), 2, "duration '" + timeout + "' is longer than 100 years");
        }
        assertThat(root).doesNotExist();
    }

    @Test
    void shouldGiveUsageErrorsExitCodeTwo()
    {
        assertOneLine(run("rfm", "create", "--network", "lab", "--size", "12345"), 2,
            "--size: memory size 12345 is not a multiple of 4096");
        assertOneLine(run("rfm", "peek", "--network", "lab", "--node", "1", "--offset", "0x13"), 2,
            "offset 0x13 is not 4-byte aligned");
        assertOneLine(run("rfm", "status", "--network", "bad/name"), 2, "network name 'bad/name' is a path");
        assertThat(root).doesNotExist();
    }
}
