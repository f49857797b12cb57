package io.rfmrt.cli.common;

import io.rfmrt.runtime.systemd.SystemdNotify;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A process under a {@code Type=notify} unit (deploy/systemd/rfmrt-node@.service, rfmrt-bridge@.service):
 * {@code READY=1} once it is up, {@code WATCHDOG=1} at half the unit's {@code WatchdogSec=} for as long as its
 * liveness check holds, and {@code STOPPING=1} as it drains. The pings come from a housekeeping thread of their own,
 * never from an RT thread: they say the process is scheduled and its liveness check passes. Without
 * {@code $NOTIFY_SOCKET} nothing is sent and no thread is started.
 */
public final class ServiceNotifier implements AutoCloseable
{
    /** The pinging thread's name. */
    public static final String WATCHDOG_THREAD = "rfmrt-systemd-watchdog";

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
    public static ServiceNotifier fromEnvironment()
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
     * The process is up: say so, and keep the unit's watchdog fed while {@code alive} holds. {@code alive} is asked
     * once per ping, on the pinging thread; once it says false no ping is sent again and systemd's watchdog fires.
     *
     * @param status the line {@code systemctl status} shows.
     * @param alive  the liveness check, called from the pinging thread only.
     */
    public void ready(final String status, final BooleanSupplier alive)
    {
        if (!notify.active())
        {
            return;
        }
        notify.ready(status);
        final long interval = notify.watchdogNanos() / 2;
        if (interval > 0)
        {
            pinger = new Thread(() -> feed(alive, interval), WATCHDOG_THREAD);
            pinger.setDaemon(true);
            pinger.start();
        }
    }

    private void feed(final BooleanSupplier alive, final long interval)
    {
        while (!closed && alive.getAsBoolean())
        {
            notify.watchdog();
            LockSupport.parkNanos(interval);
        }
    }

    /**
     * @param why what the process does now.
     */
    public void stopping(final String why)
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
