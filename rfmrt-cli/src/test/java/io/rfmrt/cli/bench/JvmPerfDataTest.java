package io.rfmrt.cli.bench;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class JvmPerfDataTest
{
    private static final int ENTRY_LENGTH = 64;

    @Test
    void shouldReadThisJvmsOwnCountersAsAnotherProcessWould()
    {
        final JvmPerfData self = JvmPerfData.of(ProcessHandle.current().pid());

        assertThat(self).isNotNull();
        assertThat(self.compilations()).isPositive();
        assertThat(self.lastCompiled()).isNotEmpty();
        assertThat(self.heapUsed()).isPositive();
        assertThat(self.gcCount()).isNotNegative();
        assertThat(self.value("sun.os.hrt.frequency")).isPositive();
    }

    @Test
    void shouldSumEveryCollectorAndConvertTicksToNanoseconds()
    {
        final byte[] file = file(ByteOrder.LITTLE_ENDIAN,
            "sun.os.hrt.frequency", 1_000_000_000L,
            "sun.gc.collector.0.invocations", 3L, "sun.gc.collector.0.time", 2_000_000L,
            "sun.gc.collector.1.invocations", 1L, "sun.gc.collector.1.time", 500_000L,
            "sun.gc.generation.0.spaces", 1L, "sun.gc.generation.0.space.0.used", 4096L,
            "sun.ci.totalCompiles", 7L, "sun.ci.lastMethod", "java/lang/String hashCode");

        final JvmPerfData data = JvmPerfData.parse(file);

        assertThat(data.gcCount()).isEqualTo(4);
        assertThat(data.gcNanos()).isEqualTo(2_500_000);
        assertThat(data.heapUsed()).isEqualTo(4096);
        assertThat(data.compilations()).isEqualTo(7);
        assertThat(data.lastCompiled()).isEqualTo("java/lang/String hashCode");
    }

    @Test
    void shouldReadABigEndianFile()
    {
        assertThat(JvmPerfData.parse(file(ByteOrder.BIG_ENDIAN, "sun.ci.totalCompiles", 9L)).compilations())
            .isEqualTo(9);
    }

    @Test
    void shouldRefuseAFileThatIsCutShortDamagedOrNotReady()
    {
        final byte[] good = file(ByteOrder.LITTLE_ENDIAN, "sun.ci.totalCompiles", 9L, "sun.rt.safepoints", 2L);

        assertThat(JvmPerfData.parse(Arrays.copyOf(good, good.length - 10))).isNull();
        assertThat(JvmPerfData.parse(Arrays.copyOf(good, 16))).isNull();
        final byte[] notReady = good.clone();
        notReady[JvmPerfData.ACCESSIBLE_OFFSET] = 0;
        assertThat(JvmPerfData.parse(notReady)).isNull();
        final byte[] badMagic = good.clone();
        badMagic[0] = 0;
        assertThat(JvmPerfData.parse(badMagic)).isNull();
        final byte[] hugeEntry = good.clone();
        new UnsafeBuffer(hugeEntry).putInt(JvmPerfData.PROLOGUE_LENGTH, Integer.MAX_VALUE, ByteOrder.LITTLE_ENDIAN);
        assertThat(JvmPerfData.parse(hugeEntry)).isNull();
        final byte[] nameOutside = good.clone();
        new UnsafeBuffer(nameOutside).putInt(JvmPerfData.PROLOGUE_LENGTH + JvmPerfData.ENTRY_NAME_OFFSET, -4,
            ByteOrder.LITTLE_ENDIAN);
        assertThat(JvmPerfData.parse(nameOutside)).isNull();
    }

    @Test
    void shouldNotFindAProcessThatIsNotThere()
    {
        assertThat(JvmPerfData.of(Integer.MAX_VALUE)).isNull();
    }

    /**
     * A perf data file as HotSpot lays it out: names and values alternate, a long or a string each.
     */
    private static byte[] file(final ByteOrder order, final Object... namesAndValues)
    {
        final int count = namesAndValues.length / 2;
        final byte[] bytes = new byte[JvmPerfData.PROLOGUE_LENGTH + count * ENTRY_LENGTH];
        final UnsafeBuffer b = new UnsafeBuffer(bytes);
        b.putInt(0, JvmPerfData.MAGIC, ByteOrder.BIG_ENDIAN);
        b.putByte(JvmPerfData.BYTE_ORDER_OFFSET, (byte)(order == ByteOrder.BIG_ENDIAN ? 0 : 1));
        b.putByte(5, (byte)2);
        b.putByte(JvmPerfData.ACCESSIBLE_OFFSET, (byte)1);
        b.putInt(JvmPerfData.ENTRY_OFFSET_OFFSET, JvmPerfData.PROLOGUE_LENGTH, order);
        b.putInt(JvmPerfData.ENTRY_COUNT_OFFSET, count, order);
        for (int i = 0; i < count; i++)
        {
            final int at = JvmPerfData.PROLOGUE_LENGTH + i * ENTRY_LENGTH;
            final byte[] name = ((String)namesAndValues[2 * i]).getBytes(StandardCharsets.US_ASCII);
            final Object value = namesAndValues[2 * i + 1];
            final int nameAt = JvmPerfData.ENTRY_HEADER_LENGTH;
            final int dataAt = 56;
            b.putInt(at, ENTRY_LENGTH, order);
            b.putInt(at + JvmPerfData.ENTRY_NAME_OFFSET, nameAt, order);
            b.putBytes(at + nameAt, name);
            b.putInt(at + JvmPerfData.ENTRY_DATA_OFFSET, dataAt, order);
            if (value instanceof Long l)
            {
                b.putByte(at + JvmPerfData.ENTRY_TYPE_OFFSET, (byte)'J');
                b.putLong(at + dataAt, l, order);
            }
            else
            {
                // a string entry keeps its bytes in a longer data area: after the name here
                final byte[] text = ((String)value).getBytes(StandardCharsets.US_ASCII);
                final int textAt = nameAt + name.length + 1;
                b.putInt(at + JvmPerfData.ENTRY_DATA_OFFSET, textAt, order);
                b.putByte(at + JvmPerfData.ENTRY_TYPE_OFFSET, (byte)'B');
                b.putInt(at + JvmPerfData.ENTRY_VECTOR_LENGTH_OFFSET, ENTRY_LENGTH - textAt, order);
                b.putBytes(at + textAt, text);
            }
        }
        return bytes;
    }
}
