package io.rfmrt.rfm;

import io.rfmrt.rfm.internal.SharedFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.regex.Pattern;

/**
 * Reading small configuration files as hostile input: only regular files (not {@code /dev/zero}, a FIFO or a
 * folder), at most a bound of bytes checked before reading, UTF-8 text without NUL bytes.
 *
 * <p>Threading: any thread.
 */
public final class TextFiles
{
    /** Largest configuration or layout file read, in bytes. */
    public static final long MAX_CONFIG_BYTES = 1 << 20;
    /** Jackson's message for a key given twice (with {@code STRICT_DUPLICATE_DETECTION}); group 1 is the key. */
    public static final Pattern DUPLICATE_KEY = Pattern.compile("Duplicate field '([^']*)'");

    private TextFiles()
    {
    }

    /**
     * @param file the file.
     * @param max  most bytes accepted.
     * @return its text.
     * @throws IllegalArgumentException with the reason in a few words ({@code permission denied}, {@code is not a
     *                                  regular file (a device, FIFO or folder)}, {@code is 5 GB; at most ...},
     *                                  {@code is not UTF-8 text (a binary file?)}); the caller names the file.
     */
    public static String read(final Path file, final long max)
    {
        try
        {
            // attributes first: they tell "permission denied" from "does not exist"
            final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            if (!attributes.isRegularFile())
            {
                throw new IllegalArgumentException(attributes.isDirectory() ? "is a folder, not a file" :
                    "is not a regular file (a device or FIFO?)");
            }
            final long size = attributes.size();
            if (size > max)
            {
                throw new IllegalArgumentException("is " + size + " bytes; a configuration file is at most " + max);
            }
            final byte[] bytes = Files.readAllBytes(file);
            if (bytes.length > max)
            {
                throw new IllegalArgumentException("grew past " + max + " bytes while being read");
            }
            for (final byte b : bytes)
            {
                if (b == 0)
                {
                    throw new IllegalArgumentException("is not text (it holds NUL bytes: a binary file?)");
                }
            }
            try
            {
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            }
            catch (final CharacterCodingException ex)
            {
                throw new IllegalArgumentException("is not UTF-8 text (a binary file?)");
            }
        }
        catch (final AccessDeniedException ex)
        {
            throw new IllegalArgumentException("permission denied");
        }
        catch (final NoSuchFileException ex)
        {
            throw new IllegalArgumentException("does not exist");
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot be read: " + SharedFiles.describe(ex));
        }
    }
}
