package io.rfmrt.runtime.replay;

import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalRecord;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the numbers in FAULT, STATE and SAMPLE records mean, as registered by the code that writes them: fault code →
 * name, state id → name, sample kind → name and the names of its values. The runtime registers its own codes
 * ({@link #runtime()}: the frame faults and {@link JournalCodes}); an application that journals faults, states or
 * samples of its own registers them before a replay, so that the replay and its reports name them without knowing
 * the application:
 * <pre>{@code
 * final ReplayVocabulary vocabulary = ReplayVocabulary.runtime()
 *     .fault(200, "OVERHEAT")
 *     .state(0, "IDLE").state(1, "HEATING")
 *     .sample(7, "THERMAL", "temperature", "duty");
 * }</pre>
 * A code registered twice under the same name is fine (registration is idempotent); under another name it is an
 * {@link IllegalArgumentException} naming both, so that two vocabularies cannot silently disagree.
 *
 * <p>Threading: register on one thread, then read from any (no registration after it is shared).
 */
public final class ReplayVocabulary
{
    private final Map<Integer, String> faults = new TreeMap<>();
    private final Map<Integer, String> states = new TreeMap<>();
    private final Map<Integer, Sample> samples = new TreeMap<>();

    /**
     * A registered sample kind.
     *
     * @param kind   the sample kind.
     * @param name   its name.
     * @param values the names of its values, value 0 first.
     */
    public record Sample(int kind, String name, List<String> values)
    {
        /**
         * @param kind   the sample kind.
         * @param name   its name.
         * @param values value names; copied.
         */
        public Sample
        {
            values = List.copyOf(values);
        }

        /**
         * @param valueName a value's name.
         * @return its index in the record ({@link JournalRecord#value(int)}), or -1 when the kind has no such value.
         */
        public int index(final String valueName)
        {
            return values.indexOf(valueName);
        }
    }

    /**
     * An empty vocabulary: every code reads as {@code code N}, {@code state N}, {@code sample N}.
     */
    public ReplayVocabulary()
    {
    }

    /**
     * @return a new vocabulary holding the runtime's own codes: the frame faults ({@link FrameStatus} names),
     *     {@code THREAD_FAILED} ({@value JournalCodes#FAULT_THREAD_FAILED}) and {@code PUBLISHER_RESTART}
     *     ({@value JournalCodes#FAULT_PUBLISHER_RESTART}).
     */
    public static ReplayVocabulary runtime()
    {
        final ReplayVocabulary vocabulary = new ReplayVocabulary();
        for (final FrameStatus status : FrameStatus.values())
        {
            final int code = JournalCodes.frameFaultCode(status);
            if (JournalCodes.isFrameFault(code))
            {
                vocabulary.fault(code, status.name());
            }
        }
        vocabulary.fault(JournalCodes.FAULT_THREAD_FAILED, "THREAD_FAILED");
        vocabulary.fault(JournalCodes.FAULT_PUBLISHER_RESTART, "PUBLISHER_RESTART");
        return vocabulary;
    }

    /**
     * @param code a fault code.
     * @param name its name.
     * @return this.
     * @throws IllegalArgumentException when the name is blank or the code already has another name.
     */
    public ReplayVocabulary fault(final int code, final String name)
    {
        put(faults, "fault code", code, check(name));
        return this;
    }

    /**
     * @param id   a state id (a STATE record's from/to, a SAMPLE record's state).
     * @param name its name.
     * @return this.
     * @throws IllegalArgumentException when the name is blank or the id already has another name.
     */
    public ReplayVocabulary state(final int id, final String name)
    {
        put(states, "state id", id, check(name));
        return this;
    }

    /**
     * @param kind       a sample kind.
     * @param name       its name.
     * @param valueNames the names of its values in record order; at most
     *                   {@value JournalRecord#SAMPLE_VALUES}, each
     *                   once.
     * @return this.
     * @throws IllegalArgumentException when a name is blank or repeated, there are too many values, or the kind is
     *                                  already registered otherwise.
     */
    public ReplayVocabulary sample(final int kind, final String name, final String... valueNames)
    {
        check(name);
        if (valueNames.length > JournalRecord.SAMPLE_VALUES)
        {
            throw new IllegalArgumentException("sample kind " + kind + " (" + name + "): " + valueNames.length +
                " value names; a SAMPLE record holds " + JournalRecord.SAMPLE_VALUES);
        }
        for (int i = 0; i < valueNames.length; i++)
        {
            check(valueNames[i]);
            for (int j = 0; j < i; j++)
            {
                if (valueNames[j].equals(valueNames[i]))
                {
                    throw new IllegalArgumentException("sample kind " + kind + " (" + name + "): value name '" +
                        valueNames[i] + "' given twice");
                }
            }
        }
        final Sample sample = new Sample(kind, name, Arrays.asList(valueNames));
        final Sample known = samples.get(kind);
        if (known != null && !known.equals(sample))
        {
            throw new IllegalArgumentException("sample kind " + kind + " is registered as " + describe(known) +
                "; cannot register it as " + describe(sample));
        }
        samples.put(kind, sample);
        return this;
    }

    /**
     * @param code a fault code.
     * @return its registered name, or {@code code N}.
     */
    public String faultName(final int code)
    {
        final String name = faults.get(code);
        return name != null ? name : "code " + code;
    }

    /**
     * @param id a state id.
     * @return its registered name, or {@code state N}.
     */
    public String stateName(final int id)
    {
        final String name = states.get(id);
        return name != null ? name : "state " + id;
    }

    /**
     * @param kind a sample kind.
     * @return its registered name, or {@code sample N}.
     */
    public String sampleName(final int kind)
    {
        final Sample sample = samples.get(kind);
        return sample != null ? sample.name() : "sample " + kind;
    }

    /**
     * @param kind a sample kind.
     * @return its registration, or {@code null}.
     */
    public Sample sample(final int kind)
    {
        return samples.get(kind);
    }

    /**
     * @param kind      a sample kind.
     * @param valueName the name of one of its values.
     * @return the value's index in the record.
     * @throws IllegalArgumentException when the kind is not registered or has no value of that name.
     */
    public int valueIndex(final int kind, final String valueName)
    {
        final Sample sample = samples.get(kind);
        if (sample == null)
        {
            throw new IllegalArgumentException("sample kind " + kind + " is not registered");
        }
        final int index = sample.index(valueName);
        if (index < 0)
        {
            throw new IllegalArgumentException("sample kind " + kind + " (" + sample.name() + ") has no value '" +
                valueName + "'; its values are " + sample.values());
        }
        return index;
    }

    /**
     * @param record a SAMPLE record.
     * @param valueName the name of one of its kind's values.
     * @return the value.
     * @throws IllegalArgumentException as {@link #valueIndex}.
     */
    public double value(final JournalRecord record, final String valueName)
    {
        return record.value(valueIndex(record.sampleKind(), valueName));
    }

    /**
     * @return registered fault names by code.
     */
    public Map<Integer, String> faults()
    {
        return Collections.unmodifiableMap(faults);
    }

    /**
     * @return registered state names by id.
     */
    public Map<Integer, String> states()
    {
        return Collections.unmodifiableMap(states);
    }

    /**
     * @return registered sample kinds by kind.
     */
    public Map<Integer, Sample> samples()
    {
        return Collections.unmodifiableMap(samples);
    }

    private static void put(final Map<Integer, String> map, final String what, final int code, final String name)
    {
        final String known = map.putIfAbsent(code, name);
        if (known != null && !known.equals(name))
        {
            throw new IllegalArgumentException(what + " " + code + " is registered as " + known +
                "; cannot register it as " + name);
        }
    }

    private static String check(final String name)
    {
        if (name == null || name.isBlank())
        {
            throw new IllegalArgumentException("a vocabulary name must not be blank (was " +
                (name == null ? "null" : "'" + name + "'") + ")");
        }
        return name;
    }

    private static String describe(final Sample sample)
    {
        return sample.name() + " " + sample.values();
    }
}
