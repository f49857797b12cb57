package io.rfmrt.runtime;


import java.util.List;

/**
 * An application a node runs: a {@link FrameHandler} on the receive path and any agents of its own (a control
 * loop's timer, a plant's schedule), started and stopped with the node. {@code app:} in a node's YAML names one:
 * {@code controller}, {@code plant} (found through {@link NodeAppFactory}) or {@code {class: com.example.MyLaw}} (a
 * public class with a public no-argument constructor, from a jar on the node's classpath).
 * <p>
 * The order: {@link #configure} (while the configuration is read, before anything opens), {@link #check} (before
 * anything opens, as the node's start and {@code --check-config} check the node), {@link #onStart} (device,
 * RT environment and journal are open, no thread runs yet), {@link #handler} and {@link #agents} (each asked once),
 * the threads run, {@link #onStop} (every thread has stopped, the journal is still open), {@link #result}.
 */
public interface NodeApp
{
    /**
     * Read the settings given under {@code app:} (every key besides {@code name}/{@code class}); report problems
     * through {@code settings}, do not throw.
     *
     * @param settings the settings.
     */
    default void configure(final AppSettings settings)
    {
        settings.bind(NoSettings.class);
    }

    /**
     * Check the node this app is to run in, before anything is opened or made: at the node's start and in
     * {@code rfmrt node --check-config} ({@link NodeContext#check()}). Add one line per problem; do not throw.
     *
     * @param ctx      the node's concluded settings (its inputs, its journal).
     * @param problems where problems go.
     */
    default void check(final NodeContext ctx, final List<String> problems)
    {
    }

    /**
     * @param node the node: {@link RfmNode#device()}, {@link RfmNode#journal()}, {@link RfmNode#environment()}.
     */
    void onStart(RfmNode node);

    /**
     * @return the handler of the node's input frames (null: frames are only journaled).
     */
    FrameHandler handler();

    /**
     * @return the app's own threads, started after the receive path.
     */
    default List<NodeAgent> agents()
    {
        return List.of();
    }

    /**
     * @param node the node, its threads stopped.
     */
    default void onStop(final RfmNode node)
    {
    }

    /**
     * The app's part of the node's heartbeat line, once per beat on the heartbeat's thread (never on the receive
     * path): what the app's loop did since the last beat, say. The app publishes its figures for this thread itself.
     *
     * @return the segment (appended after {@code | app }), or null for none.
     */
    default String heartbeat()
    {
        return null;
    }

    /**
     * @return the run's figures as a record (written as one JSON line when the node stops), or null.
     */
    default Object result()
    {
        return null;
    }

    /**
     * Whether the run did what the app is there for, asked after {@link #result} (the figures are printed either
     * way): a plant whose controller never came, or went away, ran but moved nothing it was told to. {@code rfmrt
     * node} prints the line on stderr and exits 4 instead of 0.
     *
     * @return null when the run was sound, else one line saying why it was not.
     */
    default String problem()
    {
        return null;
    }

    /** The settings of an app that takes none. */
    record NoSettings()
    {
    }
}
