package io.rfmrt.cli.demo;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.control.node.ControllerApp;
import io.rfmrt.control.node.PlantApp;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The two nodes' configurations the demo writes into its folder, beside the control layout: the demo runs what a
 * production deployment runs from deploy/conf/controller.yaml and plant.yaml, on its own network. Each file is a
 * {@link NodeFile} record written by Jackson as the YAML {@code rfmrt node --config} reads (docs/runtime.md names the
 * keys), under one comment line that says who wrote it.
 */
public final class DemoConfigs
{
    /** The controller's configuration, written into the demo's folder. */
    public static final String CONTROLLER_CONFIG = "controller.yaml";
    /** The plant's configuration, written into the demo's folder. */
    public static final String PLANT_CONFIG = "plant.yaml";
    /** The control layout, written beside them. */
    public static final String LAYOUT_CONFIG = "layout.yaml";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
        .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
        .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    /** Both nodes' threads: the isolated cores (else best effort), the ISR and consumer priorities. */
    public static final Threads THREADS = new Threads(List.of(), new Priority(80), new Priority(70), true, true);

    private DemoConfigs()
    {
    }

    /**
     * A node's configuration file.
     *
     * @param device    the device URI.
     * @param layout    the channel layout file, beside this one.
     * @param receive   what the node receives and how it waits.
     * @param threads   its threads.
     * @param strict    whether a missing RT feature stops the node.
     * @param heartbeat heartbeat interval (0: none).
     * @param journal   where it journals.
     * @param app       its app's settings; {@code null}: a node without an app (left out).
     */
    public record NodeFile(String device, String layout, Receive receive, Threads threads, boolean strict,
        int heartbeat, Journal journal, @JsonInclude(JsonInclude.Include.NON_NULL) Object app)
    {
    }

    /**
     * @param channels     the channels received.
     * @param waitStrategy the wait strategy ({@code wait}).
     */
    public record Receive(List<String> channels, @JsonProperty("wait") String waitStrategy)
    {
    }

    /**
     * @param cpus          the CPUs (empty: the isolated cores, else best effort).
     * @param isr           the ISR-wake thread.
     * @param consumer      the consumer thread.
     * @param lockMemory    lock the process's memory.
     * @param cpuDmaLatency hold /dev/cpu_dma_latency at 0.
     */
    public record Threads(List<Integer> cpus, Priority isr, Priority consumer, boolean lockMemory,
        boolean cpuDmaLatency)
    {
    }

    /**
     * @param priority SCHED_FIFO priority.
     */
    public record Priority(int priority)
    {
    }

    /**
     * @param enabled whether the node journals.
     * @param dir     the journal's folder.
     */
    public record Journal(boolean enabled, String dir)
    {
    }

    /**
     * The controller app's settings ({@code ControllerApp}); {@code null} ones are left out (the app's default).
     *
     * @param name       the app.
     * @param rateHz     the loop rate.
     * @param profile    the trajectory.
     * @param gains      the {@code ControllerGains} settings but the period, or {@code null} for the standard tune;
     *                   with a law of its own, that law's settings.
     * @param law        the {@code ControlLaw} class the controller hosts, or {@code null} for the shipped PID.
     * @param stallAt    the controller-stall fault: the sensor cycle after which the thread is held up once.
     * @param stallNanos for this long.
     * @param excite     an excitation the controller runs ({@code ExcitationSpec}), or {@code null} for none.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ControllerSettings(String name, int rateHz, String profile, Map<String, Object> gains, String law,
        Long stallAt, @JsonIgnore Long stallNanos, String excite)
    {
        /** @return {@code stall:}, the stall's length with its unit, as the node YAML takes it. */
        @JsonProperty("stall")
        public String stall()
        {
            return stallNanos == null ? null : stallNanos + "ns";
        }

        /**
         * @param rate    the loop rate.
         * @param profile the trajectory.
         * @param gains   the gains, or {@code null} for the standard tune.
         * @return the settings without a stall.
         */
        public static ControllerSettings of(final int rate, final String profile, final ControllerGains gains)
        {
            return new ControllerSettings(ControllerApp.NAME, rate, profile, gains == null ? null : settings(gains),
                null, null, null, null);
        }

        /**
         * @param law      the {@code ControlLaw} class.
         * @param settings its settings, or {@code null} for none.
         * @return these settings hosting that law instead of the shipped PID.
         */
        public ControllerSettings withLaw(final String law, final Map<String, Object> settings)
        {
            return new ControllerSettings(name, rateHz, profile, settings, law, stallAt, stallNanos, excite);
        }

        /**
         * @param spec an excitation ({@code ExcitationSpec}), or {@code null} for none.
         * @return these settings running it.
         */
        public ControllerSettings withExcite(final String spec)
        {
            return new ControllerSettings(name, rateHz, profile, gains, law, stallAt, stallNanos, spec);
        }

        /**
         * @param at    the sensor cycle after which the controller's thread is held up.
         * @param nanos for this long.
         * @return these settings with the stall.
         */
        public ControllerSettings withStall(final long at, final long nanos)
        {
            return new ControllerSettings(name, rateHz, profile, gains, law, at, nanos, excite);
        }
    }

    /**
     * The plant app's settings ({@code PlantApp}).
     *
     * @param name         the app.
     * @param rateHz       the loop rate.
     * @param cycles       ticks to run.
     * @param dropoutFrom  the sensor-dropout fault's first cycle (0: none).
     * @param dropoutTo    its end.
     * @param latencyFrom  the latency fault's first cycle (0: none).
     * @param latencyNanos the latency.
     * @param model        the axis model.
     * @param stallAt      the plant-stall fault's cycle (0: none).
     * @param stallNanos   its length.
     */
    public record PlantSettings(String name, int rateHz, long cycles, long dropoutFrom, long dropoutTo,
        long latencyFrom, @JsonIgnore long latencyNanos, String model, long stallAt, @JsonIgnore long stallNanos)
    {
        /** @return {@code latency:} with its unit, as the node YAML takes it. */
        @JsonProperty("latency")
        public String latency()
        {
            return latencyNanos + "ns";
        }

        /** @return {@code stall:} with its unit. */
        @JsonProperty("stall")
        public String stall()
        {
            return stallNanos + "ns";
        }
    }

    /**
     * Write the controller's configuration and the control layout into a folder.
     *
     * @param out      the folder.
     * @param network  the emulated network.
     * @param journals the folder of both nodes' journals.
     * @param wait     the controller's wait strategy.
     * @param app      the controller's settings.
     * @return the controller's configuration.
     */
    public static Path writeController(final Path out, final String network, final Path journals, final String wait,
        final ControllerSettings app) throws IOException
    {
        Files.writeString(out.resolve(LAYOUT_CONFIG), ControlFrames.layoutText());
        final Path file = out.resolve(CONTROLLER_CONFIG);
        write(file, "rfmrt demo: the controller node (deploy/conf/controller.yaml, on the demo's network)", new NodeFile(
            ControlFrames.deviceUri(network, ControlFrames.CONTROLLER_NODE), LAYOUT_CONFIG,
            new Receive(List.of(ControlFrames.SENSOR.name()), wait.toLowerCase(Locale.ROOT)), THREADS, false, 0,
            new Journal(true, journals.resolve("controller").toString()), app));
        return file;
    }

    /**
     * Write the plant's configuration into a folder (beside the controller's and the layout).
     *
     * @param out      the folder.
     * @param network  the emulated network.
     * @param journals the folder of both nodes' journals.
     * @param app      the plant's settings.
     * @return the plant's configuration.
     */
    public static Path writePlant(final Path out, final String network, final Path journals,
        final PlantSettings app) throws IOException
    {
        final Path file = out.resolve(PLANT_CONFIG);
        write(file, "rfmrt demo: the plant node (deploy/conf/plant.yaml, on the demo's network)", new NodeFile(
            ControlFrames.deviceUri(network, ControlFrames.PLANT_NODE), LAYOUT_CONFIG,
            new Receive(List.of(ControlFrames.COMMAND.name()), "blocking"), THREADS, false, 0,
            new Journal(true, journals.resolve("plant").toString()), app));
        return file;
    }

    /**
     * Write both nodes' configurations and the layout, for a run without faults or a stalled controller (as the
     * tests that start the two nodes themselves do).
     *
     * @param out      the folder.
     * @param network  the emulated network.
     * @param journals the folder of both nodes' journals.
     * @param rate     the loop rate.
     * @param cycles   the plant's ticks.
     * @param wait     the controller's wait strategy.
     * @param model    the plant's axis model.
     * @param profile  the trajectory.
     * @return the controller's configuration (the plant's is {@link #PLANT_CONFIG} beside it).
     */
    public static Path writeBoth(final Path out, final String network, final Path journals, final int rate,
        final long cycles, final String wait, final String model, final String profile) throws IOException
    {
        writePlant(out, network, journals, new PlantSettings(PlantApp.NAME, rate, cycles, 0, 0, 0, 0, model, 0, 0));
        return writeController(out, network, journals, wait, ControllerSettings.of(rate, profile, null));
    }

    /**
     * @param gains controller gains.
     * @return every setting but the period (the node sets it from its rate), by name, in the record's order.
     */
    public static Map<String, Object> settings(final ControllerGains gains)
    {
        final Map<String, Object> settings = new LinkedHashMap<>();
        for (final RecordComponent c : ControllerGains.class.getRecordComponents())
        {
            if ("periodSeconds".equals(c.getName()))
            {
                continue;
            }
            try
            {
                settings.put(c.getName(), c.getAccessor().invoke(gains));
            }
            catch (final ReflectiveOperationException ex)
            {
                throw new IllegalStateException("cannot read ControllerGains." + c.getName(), ex);
            }
        }
        return settings;
    }

    /**
     * @param settings gains settings ({@link #settings}).
     * @return them on one line, as YAML's flow mapping: {@code {name: value, ...}}.
     */
    public static String text(final Map<String, Object> settings)
    {
        return settings.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
            .collect(Collectors.joining(", ", "{", "}"));
    }

    /**
     * Write a node's configuration file.
     *
     * @param file   the file.
     * @param writer who wrote it and what it is, for its first line ({@code # written by WRITER}).
     * @param node   the configuration.
     */
    public static void write(final Path file, final String writer, final NodeFile node) throws IOException
    {
        final String yaml;
        try
        {
            yaml = YAML.writeValueAsString(node);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("cannot write " + file + " as YAML", ex);
        }
        Files.writeString(file, "# written by " + writer + "\n" + yaml);
    }
}
