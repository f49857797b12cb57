package io.rfmrt.rfm.channel;

/**
 * A named shared variable of a layout, for users who share state tables rather than messages.
 *
 * @param name   unique name.
 * @param type   value type.
 * @param offset offset, aligned to the type's size.
 */
public record VariableSpec(String name, Type type, long offset)
{
    /**
     * Value types and their sizes.
     */
    public enum Type
    {
        /** 8-bit integer. */
        INT8(1),
        /** 16-bit integer. */
        INT16(2),
        /** 32-bit integer. */
        INT32(4),
        /** 64-bit integer. */
        INT64(8),
        /** IEEE 754 single. */
        FLOAT32(4),
        /** IEEE 754 double. */
        FLOAT64(8);

        private final int size;

        Type(final int size)
        {
            this.size = size;
        }

        /**
         * @return bytes.
         */
        public int size()
        {
            return size;
        }
    }
}
