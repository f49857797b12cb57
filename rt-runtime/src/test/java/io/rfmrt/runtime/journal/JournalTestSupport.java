package io.rfmrt.runtime.journal;

/**
 * Helpers shared by the journal tests.
 */
public final class JournalTestSupport
{
    private JournalTestSupport()
    {
    }

    /**
     * Close a journal inside its own try-with-resources block, to look at its final stats there.
     *
     * @param journal to close; closing again at the end of the block is a no-op.
     */
    static void closeNow(final AutoCloseable journal)
    {
        try
        {
            journal.close();
        }
        catch (final Exception ex)
        {
            throw new AssertionError(ex);
        }
    }

    /**
     * Stall the journal thread (for tests outside this package): writers then fill their rings and drop.
     */
    public static void pause(final Journal journal)
    {
        journal.pauseForTest();
    }

    public static void resume(final Journal journal)
    {
        journal.resumeForTest();
    }
}
