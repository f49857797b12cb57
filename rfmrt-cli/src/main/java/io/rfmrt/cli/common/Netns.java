package io.rfmrt.cli.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Emulated hosts on one machine: Linux network namespaces joined by a private link (a veth pair for two, a Linux
 * bridge in a namespace of its own for more), one address per host on {@value #SUBNET}.0/24. Everything it makes
 * lives inside the namespaces it made, and goes when {@link #close()} deletes them. Needs root and {@code ip}
 * (iproute2).
 */
public final class Netns implements AutoCloseable
{
    /** The private link's network, /24. */
    public static final String SUBNET = "10.214.0";

    private final String prefix;
    private final int hosts;
    private final List<String> made = new ArrayList<>();

    private Netns(final String prefix, final int hosts)
    {
        this.prefix = prefix;
        this.hosts = hosts;
    }

    /**
     * @return null when namespaces can be made here, else why not (one line).
     */
    public static String unavailable()
    {
        if (!"root".equals(System.getProperty("user.name")))
        {
            return "network namespaces need root (user " + System.getProperty("user.name") + ")";
        }
        if (!Files.isExecutable(Path.of("/usr/sbin/ip")) && !Files.isExecutable(Path.of("/sbin/ip")) &&
            !Files.isExecutable(Path.of("/usr/bin/ip")) && !Files.isExecutable(Path.of("/bin/ip")))
        {
            return "no ip command (iproute2)";
        }
        try
        {
            final Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0)
            {
                return "ip netns list failed: " + new String(p.getInputStream().readAllBytes(),
                    StandardCharsets.UTF_8).trim();
            }
        }
        catch (final IOException ex)
        {
            return "cannot run ip: " + ex.getMessage();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        return null;
    }

    /**
     * Make {@code hosts} namespaces {@code PREFIX-0 ..} on one private link, loopback and link up.
     *
     * @param prefix namespace name prefix; at most 8 characters (interface names derive from it).
     * @param hosts  2 or more.
     * @return the namespaces; close to delete them.
     * @throws IOException when a step fails (everything made so far is deleted).
     */
    public static Netns create(final String prefix, final int hosts) throws IOException
    {
        if (prefix.length() > 8 || !prefix.matches("[a-z0-9]+"))
        {
            throw new IllegalArgumentException("namespace prefix '" + prefix + "' is not 1-8 of a-z, 0-9");
        }
        final Netns netns = new Netns(prefix, hosts);
        try
        {
            netns.build();
            return netns;
        }
        catch (final IOException | RuntimeException ex)
        {
            netns.close();
            throw ex;
        }
    }

    private void build() throws IOException
    {
        for (int i = 0; i < hosts; i++)
        {
            ip("netns", "add", name(i));
            made.add(name(i));
            ip("-n", name(i), "link", "set", "lo", "up");
        }
        if (hosts == 2)
        {
            ip("link", "add", device(0), "netns", name(0), "type", "veth", "peer", "name", device(1), "netns",
                name(1));
        }
        else
        {
            final String sw = prefix + "-sw";
            ip("netns", "add", sw);
            made.add(sw);
            ip("-n", sw, "link", "add", "br0", "type", "bridge");
            ip("-n", sw, "link", "set", "br0", "up");
            for (int i = 0; i < hosts; i++)
            {
                final String port = prefix + "p" + i;
                ip("link", "add", device(i), "netns", name(i), "type", "veth", "peer", "name", port, "netns", sw);
                ip("-n", sw, "link", "set", port, "master", "br0");
                ip("-n", sw, "link", "set", port, "up");
            }
        }
        for (int i = 0; i < hosts; i++)
        {
            ip("-n", name(i), "addr", "add", address(i) + "/24", "dev", device(i));
            ip("-n", name(i), "link", "set", device(i), "up");
        }
    }

    /**
     * @param host 0 ..
     * @return its namespace's name.
     */
    String name(final int host)
    {
        return prefix + "-" + host;
    }

    /**
     * @param host 0 ..
     * @return its link device's name (inside its namespace).
     */
    String device(final int host)
    {
        return prefix + "h" + host;
    }

    /**
     * @param host 0 ..
     * @return its address on the private link.
     */
    public static String address(final int host)
    {
        return SUBNET + "." + (host + 1);
    }

    /**
     * @param host 0 ..
     * @return the words that run a command in its namespace.
     */
    public List<String> exec(final int host)
    {
        return List.of("ip", "netns", "exec", name(host));
    }

    /**
     * Take a host's link down or up again ({@code ip link set DEV down|up} in its namespace).
     *
     * @param host 0 ..
     * @param up   the new state.
     * @throws IOException when ip fails.
     */
    public void link(final int host, final boolean up) throws IOException
    {
        ip("-n", name(host), "link", "set", device(host), up ? "up" : "down");
    }

    /**
     * Delete every namespace made (their devices go with them). Never throws.
     */
    @Override
    public void close()
    {
        for (int i = made.size() - 1; i >= 0; i--)
        {
            try
            {
                ip("netns", "del", made.get(i));
            }
            catch (final IOException ex)
            {
                // already gone
            }
        }
        made.clear();
    }

    private static void ip(final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add("ip");
        command.addAll(List.of(args));
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try
        {
            if (!p.waitFor(20, TimeUnit.SECONDS))
            {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + ": no answer in 20 s");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", command) + ": interrupted");
        }
        if (p.exitValue() != 0)
        {
            throw new IOException(String.join(" ", command) + ": " + new String(p.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8).trim());
        }
    }
}
