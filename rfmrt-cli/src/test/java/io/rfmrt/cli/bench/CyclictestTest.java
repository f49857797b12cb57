package io.rfmrt.cli.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Finding cyclictest: the first executable one in the folders searched, and, with none, one line naming the Debian
 * package to install. Nothing is installed at run time.
 */
class CyclictestTest
{
    @TempDir
    Path temp;

    @Test
    void shouldNameThePackageWhenCyclictestIsMissing() throws Exception
    {
        final Path empty = Files.createDirectory(temp.resolve("empty"));
        final Path notExecutable = Files.createDirectory(temp.resolve("plain"));
        Files.writeString(notExecutable.resolve("cyclictest"), "");

        assertThatThrownBy(() -> Cyclictest.binary(List.of(empty, notExecutable)))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("cyclictest not found in [" + empty + ", " + notExecutable + "]: it is in Debian's package " +
                "rt-tests (as root: apt-get install rt-tests)");
    }

    @Test
    void shouldTakeTheFirstExecutableCyclictest() throws Exception
    {
        final Path empty = Files.createDirectory(temp.resolve("empty"));
        final Path first = Files.createDirectory(temp.resolve("first"));
        final Path second = Files.createDirectory(temp.resolve("second"));
        for (final Path dir : List.of(first, second))
        {
            Files.createFile(dir.resolve("cyclictest"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-x---")));
        }

        assertThat(Cyclictest.binary(List.of(empty, first, second))).isEqualTo(first.resolve("cyclictest").toString());
    }
}
