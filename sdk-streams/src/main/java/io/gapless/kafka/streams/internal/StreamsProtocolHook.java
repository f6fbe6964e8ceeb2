package io.gapless.kafka.streams.internal;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Installs {@link GaplessConsumerWrapper} as the main consumer under {@code group.protocol=streams},
 * through Kafka Streams' internal {@code __internal.consumer.wrapper__} setting (4.4). Checks,
 * without touching the wrapper class, that the Kafka Streams on the classpath has the hook, and
 * fails with a {@link ConfigException} that says why otherwise.
 */
public final class StreamsProtocolHook {
    /** Kafka Streams' internal main-consumer wrapper setting. */
    public static final String WRAPPER_CONFIG = "__internal.consumer.wrapper__";
    private static final String WRAPPER_CLASS = "org.apache.kafka.streams.internals.ConsumerWrapper";
    private static final String ASYNC_CONSUMER_CLASS = "org.apache.kafka.clients.consumer.internals.AsyncKafkaConsumer";

    private StreamsProtocolHook() {
    }

    /** Adds the wrapper and the plan to the main consumer's settings in {@code streamsProps}. */
    public static void install(Properties streamsProps, ResetPlan plan) {
        checkHookAvailable();
        String wrapperKey = StreamsConfig.MAIN_CONSUMER_PREFIX + WRAPPER_CONFIG;
        for (String key : new String[]{WRAPPER_CONFIG, StreamsConfig.CONSUMER_PREFIX + WRAPPER_CONFIG, wrapperKey}) {
            if (streamsProps.containsKey(key)) {
                throw new ConfigException(key, streamsProps.get(key), "GaplessStreams installs its own main-consumer wrapper"
                        + " under group.protocol=streams and cannot combine it with another one");
            }
        }
        streamsProps.put(wrapperKey, GaplessConsumerWrapper.class);
        streamsProps.put(StreamsConfig.MAIN_CONSUMER_PREFIX + GaplessConsumerWrapper.PLAN_CONFIG, plan);
    }

    /** Whether Kafka Streams' internal main-consumer wrapper exists with the shape the SDK was built against. */
    public static boolean hookAvailable() {
        try {
            Class<?> wrapper = Class.forName(WRAPPER_CLASS, false, StreamsProtocolHook.class.getClassLoader());
            Class<?> async = Class.forName(ASYNC_CONSUMER_CLASS, false, StreamsProtocolHook.class.getClassLoader());
            wrapper.getMethod("wrapConsumer", async, Map.class, Optional.class);
            return true;
        } catch (ClassNotFoundException | NoSuchMethodException | LinkageError e) {
            return false;
        }
    }

    static void checkHookAvailable() {
        if (!hookAvailable()) {
            throw new ConfigException(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams", "with the streams rebalance protocol Kafka"
                    + " Streams creates the main consumer itself and bypasses KafkaClientSupplier, and the only hook to decorate it,"
                    + " the internal " + WRAPPER_CLASS + " (" + WRAPPER_CONFIG + "), is missing or changed in the kafka-streams on"
                    + " the classpath; use group.protocol=classic for new-partitions reset policies");
        }
    }
}
