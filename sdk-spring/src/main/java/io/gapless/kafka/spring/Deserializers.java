package io.gapless.kafka.spring;

import org.apache.kafka.common.serialization.Deserializer;

import java.util.Map;

/** Deserializer instances given to a factory are configured with each consumer's settings, unless the user says not to (Spring's rule). */
final class Deserializers {
    private Deserializers() {
    }

    static <T> Deserializer<T> configured(Deserializer<T> deserializer, Map<String, Object> configs, boolean isKey, boolean configure) {
        if (deserializer != null && configure) {
            deserializer.configure(configs, isKey);
        }
        return deserializer;
    }
}
