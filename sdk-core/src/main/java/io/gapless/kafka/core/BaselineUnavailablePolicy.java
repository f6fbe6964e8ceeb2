package io.gapless.kafka.core;

import java.util.Locale;

/**
 * What to do when the group baseline cannot be read or written: {@code gapless.baseline.unavailable}.
 *
 * @since 0.1.0
 */
public enum BaselineUnavailablePolicy {
    /** Fail the poll with a {@link BaselineUnavailableException} (the default): nothing is skipped. */
    FAIL,
    /** Treat every partition as pre-existing and apply the base {@code auto.offset.reset}, with a WARN. */
    BASE_POLICY;

    /** The configuration value, lower case with a hyphen. */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
