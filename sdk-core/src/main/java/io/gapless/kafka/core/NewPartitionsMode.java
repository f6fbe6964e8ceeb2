package io.gapless.kafka.core;

import java.util.Locale;

/**
 * How the SDK delivers {@code auto.offset.reset.new.partitions}: {@code gapless.new.partitions.mode}.
 *
 * @since 0.1.0
 */
public enum NewPartitionsMode {
    /** Native where kafka-clients and the broker support KIP-1327, emulation otherwise. */
    AUTO,
    /** Native only; construction fails where the client or broker lacks support. */
    NATIVE,
    /** Always the SDK's client-side emulation (group baseline), even where native support exists. */
    EMULATE;

    /** The configuration value, lower case. */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
