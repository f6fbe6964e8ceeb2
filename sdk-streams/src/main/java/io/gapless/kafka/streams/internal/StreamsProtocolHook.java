/*
 * Copyright 2026 The Gapless authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.gapless.kafka.streams.internal;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Installs {@link GaplessConsumerWrapper} as the main consumer under {@code group.protocol=streams},
 * through Kafka Streams' internal {@code __internal.consumer.wrapper__} setting (4.4). Checks, before
 * anything is installed, that the Kafka Streams on the classpath still has the hook in the shape
 * the wrapper was compiled against, and fails with a {@link ConfigException} that says why otherwise
 * (rather than an {@code AbstractMethodError} or a silently bypassed override at run time).
 */
public final class StreamsProtocolHook {
    /** Kafka Streams' internal main-consumer wrapper setting. */
    public static final String WRAPPER_CONFIG = "__internal.consumer.wrapper__";
    private static final String WRAPPER_CLASS = "org.apache.kafka.streams.internals.ConsumerWrapper";
    private static final String ASYNC_CONSUMER_CLASS = "org.apache.kafka.clients.consumer.internals.AsyncKafkaConsumer";
    private static final String OUR_WRAPPER_CLASS = "io.gapless.kafka.streams.internal.GaplessConsumerWrapper";

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
        return problem().isEmpty();
    }

    static void checkHookAvailable() {
        problem().ifPresent(StreamsProtocolHook::fail);
    }

    private static Optional<String> problem() {
        ClassLoader loader = StreamsProtocolHook.class.getClassLoader();
        Class<?> base;
        Class<?> async;
        try {
            base = Class.forName(WRAPPER_CLASS, false, loader);
            async = Class.forName(ASYNC_CONSUMER_CLASS, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.of(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        Optional<String> hook = hookProblem(base, async);
        if (hook.isPresent()) {
            return hook;
        }
        try {
            return shapeProblem(base, Class.forName(OUR_WRAPPER_CLASS, true, loader));
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.of("the SDK's wrapper does not link against it (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
    }

    /** Throws the {@link ConfigException} {@code create} promises when {@code base} cannot carry a wrapper shaped like {@code ours}. */
    static void check(Class<?> base, Class<?> async, Class<?> ours) {
        hookProblem(base, async).or(() -> shapeProblem(base, ours)).ifPresent(StreamsProtocolHook::fail);
    }

    /** {@code wrapConsumer(AsyncKafkaConsumer, Map, Optional)} must exist, concrete (the wrapper calls it) and overridable. */
    static Optional<String> hookProblem(Class<?> base, Class<?> async) {
        try {
            Method m = base.getMethod("wrapConsumer", async, Map.class, Optional.class);
            if (Modifier.isAbstract(m.getModifiers()) || Modifier.isFinal(m.getModifiers())) {
                return Optional.of("wrapConsumer(AsyncKafkaConsumer, Map, Optional) is " + Modifier.toString(m.getModifiers()));
            }
            return Optional.empty();
        } catch (NoSuchMethodException e) {
            return Optional.of("it has no wrapConsumer(AsyncKafkaConsumer, Map, Optional)");
        }
    }

    /**
     * The wrapper ({@code ours}, compiled against Kafka Streams 4.4) must implement every method
     * Kafka Streams may call (no abstract method left: a newer base or interface method would
     * otherwise end in {@code AbstractMethodError}), every method it overrides to carry the
     * feature must still exist in {@code base} (or Kafka Streams would bypass it), and {@code base}
     * must have no public method beyond the ones {@link WrapperMethods} lists (a newer Kafka Streams
     * could call a new one instead of {@code poll}, {@code position} or a seek, past the SDK).
     */
    static Optional<String> shapeProblem(Class<?> base, Class<?> ours) {
        List<String> problems = new ArrayList<>();
        Arrays.stream(base.getMethods()).filter(WrapperMethods::callable).filter(m -> !WrapperMethods.known(m))
                .map(WrapperMethods::signature).sorted().forEach(unknown -> problems.add("it has a method the SDK does not know, "
                        + unknown + ", which Kafka Streams may call instead of one the SDK's wrapper overrides"));
        for (Method m : ours.getMethods()) {
            if (Modifier.isAbstract(m.getModifiers())) {
                problems.add("it declares " + signature(m) + ", which the SDK's wrapper does not implement");
            }
        }
        for (Method m : ours.getDeclaredMethods()) {
            if (!Modifier.isPublic(m.getModifiers()) || Modifier.isStatic(m.getModifiers()) || m.isSynthetic() || m.isBridge()) {
                continue;
            }
            try {
                Method overridden = base.getMethod(m.getName(), m.getParameterTypes());
                if (Modifier.isFinal(overridden.getModifiers())) {
                    problems.add(signature(overridden) + " became final");
                }
            } catch (NoSuchMethodException e) {
                problems.add("it has no " + signature(m) + " any more, so Kafka Streams would bypass the SDK's override");
            }
        }
        return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
    }

    private static String signature(Method m) {
        return m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName)
                .collect(java.util.stream.Collectors.joining(", ", "(", ")"));
    }

    private static void fail(String why) {
        throw new ConfigException(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams", "with the streams rebalance protocol Kafka"
                + " Streams creates the main consumer itself and bypasses KafkaClientSupplier, and the only hook to decorate it,"
                + " the internal " + WRAPPER_CLASS + " (" + WRAPPER_CONFIG + "), is missing or changed in the kafka-streams on"
                + " the classpath (" + why + "); use group.protocol=classic for new-partitions reset policies");
    }
}
