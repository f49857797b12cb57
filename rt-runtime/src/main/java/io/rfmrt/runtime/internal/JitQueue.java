package io.rfmrt.runtime.internal;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;

/**
 * What the JIT compilers of this JVM have to do now: the compilations in progress and queued, as the JVM's own
 * diagnostic command {@code Compiler.queue} lists them (the same text {@code jcmd PID Compiler.queue} prints).
 * <p>
 * Why not the compilation time the management bean sums: it grows only when a compilation ends, so one long
 * optimising compilation in progress looks like a quiet compiler, and a warm-up that stops then leaves the hot path's
 * optimised code to be compiled after the RT threads start, when a busy RT thread on each cpu leaves the compiler no
 * time (seen as a receiver running profiled code for most of a second and overflowing its ring).
 * <p>
 * Threading: any thread; off the hot path (an MBean call, a few hundred µs).
 */
public final class JitQueue
{
    private static final String OPERATION = "compilerQueue";

    private JitQueue()
    {
    }

    /**
     * @return compilations in progress plus queued, or -1 when this JVM does not say (no diagnostic command bean).
     */
    public static int pending()
    {
        try
        {
            final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            final Object text = server.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), OPERATION,
                new Object[]{null}, new String[]{String[].class.getName()});
            return text instanceof String s ? count(s) : -1;
        }
        catch (final JMException | RuntimeException ex)
        {
            return -1;
        }
    }

    /**
     * @param listing the text of {@code Compiler.queue}.
     * @return the compilation tasks it names: one line each, ending with the method's size in bytes.
     */
    static int count(final String listing)
    {
        int tasks = 0;
        for (final String line : listing.split("\n"))
        {
            if (line.trim().endsWith("bytes)"))
            {
                tasks++;
            }
        }
        return tasks;
    }
}
