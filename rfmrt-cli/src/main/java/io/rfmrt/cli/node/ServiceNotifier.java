package io.rfmrt.cli.node;

import io.rfmrt.cli.common.UsageException;
import io.rfmrt.runtime.RfmNode;
import io.rfmrt.runtime.systemd.SystemdNotify;

import java.util.concurrent.locks.LockSupport;

/**
 * A node under a {@code Type=notify} unit (deploy/systemd/rfmrt-node@.service): {@code READY=1} once it is armed,
 * {@code WATCHDOG=1} at half the unit's {@code WatchdogSec=} for as long as none of its threads has failed, and
 * {@code STOPPING=1} as it drains. The pings come from a housekeeping thread of their own: they say the process is
 * scheduled and the node has not failed; an RT thread that is alive but stuck is the control loop's watchdog's to
 * catch. Without {@code $NOTIFY_SOCKET} nothing is sent and no thread is started.
 */
final class ServiceNotifier implements AutoCloseable
{
    /** The pinging thread's name. */
    static final String WATCHDOG_THREAD = "rfmrt-systemd-watchdog";

    private final SystemdNotify notify;
    private volatile boolean closed;
    private Thread pinger;

    private ServiceNotifier(final SystemdNotify notify)
    {
        this.notify = notify;
    }

    /**
     * @return the notifier this process's environment asks for.
     * @throws UsageException naming the variable and value when the environment cannot be used.
     */
    static ServiceNotifier fromEnvironment()
    {
        try
        {
            return new ServiceNotifier(SystemdNotify.fromEnvironment());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(ex.getMessage());
        }
    }

    /**
     * The node is armed: say so, and keep the unit's watchdog fed while it has not failed.
     *
     * @param node   the started node.
     * @param status the line {@code systemctl status} shows.
     */
    void armed(final RfmNode node, final String status)
    {
        if (!notify.active())
        {
            return;
        }
        notify.ready(status);
        final long interval = notify.watchdogNanos() / 2;
        if (interval > 0)
        {
            pinger = new Thread(() -> feed(node, interval), WATCHDOG_THREAD);
            pinger.setDaemon(true);
            pinger.start();
        }
    }

    private void feed(final RfmNode node, final long interval)
    {
        while (!closed && node.failure() == null && !node.terminated())
        {
            notify.watchdog();
            LockSupport.parkNanos(interval);
        }
    }

    /**
     * @param why what the node does now.
     */
    void stopping(final String why)
    {
        closed = true;
        notify.stopping(why);
    }

    @Override
    public void close()
    {
        closed = true;
        if (pinger != null)
        {
            LockSupport.unpark(pinger);
        }
        notify.close();
    }
}
