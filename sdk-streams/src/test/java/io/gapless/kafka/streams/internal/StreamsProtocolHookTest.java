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

import org.apache.kafka.clients.consumer.internals.AsyncKafkaConsumer;
import org.apache.kafka.clients.consumer.internals.StreamsRebalanceData;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.internals.ConsumerWrapper;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streams-protocol hook is checked against the shape of Kafka Streams' internal
 * {@code ConsumerWrapper}: stand-in classes play a future Kafka Streams whose wrapper changed.
 */
class StreamsProtocolHookTest {

    @Test
    void theKafkaStreamsOnTheClasspathCarriesTheWrapper() {
        assertTrue(StreamsProtocolHook.hookAvailable());
        assertDoesNotThrow(() -> StreamsProtocolHook.check(ConsumerWrapper.class, AsyncKafkaConsumer.class, GaplessConsumerWrapper.class));
    }

    /** The SDK's wrapper overrides exactly the methods it must see, and the 4.4 wrapper has no method beyond the two lists. */
    @Test
    void theSdksWrapperOverridesEveryMethodItMustSee() {
        java.util.Set<String> overridden = java.util.Arrays.stream(GaplessConsumerWrapper.class.getDeclaredMethods())
                .filter(WrapperMethods::callable).map(WrapperMethods::signature).collect(java.util.stream.Collectors.toSet());
        assertEquals(WrapperMethods.SDK_SEES, overridden);
        assertTrue(java.util.Arrays.stream(ConsumerWrapper.class.getMethods()).filter(WrapperMethods::callable).allMatch(WrapperMethods::known));
    }

    @Test
    void aWrapperWithoutWrapConsumerIsAConfigException() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> StreamsProtocolHook.check(NoHook.class, AsyncKafkaConsumer.class, NoHook.class));
        assertTrue(e.getMessage().contains("wrapConsumer") && e.getMessage().contains("group.protocol=classic"), e.getMessage());
    }

    /** A newer base with a method the SDK's wrapper does not implement: a ConfigException at create, not an AbstractMethodError when Streams calls it. */
    @Test
    void aMethodTheSdkDoesNotImplementIsAConfigException() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> StreamsProtocolHook.check(BaseWithNewMethod.class, AsyncKafkaConsumer.class, OursAgainstNewBase.class));
        assertTrue(e.getMessage().contains("pollForShare()"), e.getMessage());
    }

    /** A base that no longer has a method the SDK overrides would bypass the SDK silently. */
    @Test
    void anOverrideKafkaStreamsNoLongerCallsIsAConfigException() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> StreamsProtocolHook.check(BaseWithoutPosition.class, AsyncKafkaConsumer.class, OursOverridingPosition.class));
        assertTrue(e.getMessage().contains("position(TopicPartition)"), e.getMessage());
    }

    /**
     * A newer Kafka Streams whose wrapper gains a concrete method (which it might call instead of
     * poll, position or a seek) would bypass the SDK unflagged: a ConfigException naming it.
     */
    @Test
    void aConcreteMethodTheSdkDoesNotKnowIsAConfigException() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> StreamsProtocolHook.check(BaseWithNewConcreteMethod.class, AsyncKafkaConsumer.class, OursAgainstNewConcreteBase.class));
        assertTrue(e.getMessage().contains("pollForTasks(Duration)"), e.getMessage());
    }

    @Test
    void aFinalWrapConsumerIsAConfigException() {
        assertThrows(ConfigException.class, () -> StreamsProtocolHook.check(FinalHook.class, AsyncKafkaConsumer.class, FinalHook.class));
    }

    static class NoHook {
    }

    abstract static class BaseWithNewMethod {
        public void wrapConsumer(AsyncKafkaConsumer<byte[], byte[]> d, Map<String, Object> c, Optional<StreamsRebalanceData> r) {
        }

        public abstract void pollForShare();
    }

    /** What the SDK's wrapper compiled against 4.4 looks like to reflection when loaded with that newer base. */
    abstract static class OursAgainstNewBase extends BaseWithNewMethod {
        @Override
        public void wrapConsumer(AsyncKafkaConsumer<byte[], byte[]> d, Map<String, Object> c, Optional<StreamsRebalanceData> r) {
        }
    }

    static class BaseWithoutPosition {
        public void wrapConsumer(AsyncKafkaConsumer<byte[], byte[]> d, Map<String, Object> c, Optional<StreamsRebalanceData> r) {
        }
    }

    static class OursOverridingPosition extends BaseWithoutPosition {
        public long position(TopicPartition partition) {
            return 0;
        }
    }

    static class BaseWithNewConcreteMethod {
        public void wrapConsumer(AsyncKafkaConsumer<byte[], byte[]> d, Map<String, Object> c, Optional<StreamsRebalanceData> r) {
        }

        public long position(TopicPartition partition) {
            return 0;
        }

        public Object pollForTasks(Duration timeout) {
            return null;
        }
    }

    static class OursAgainstNewConcreteBase extends BaseWithNewConcreteMethod {
        @Override
        public long position(TopicPartition partition) {
            return 1;
        }
    }

    static class FinalHook {
        public final void wrapConsumer(AsyncKafkaConsumer<byte[], byte[]> d, Map<String, Object> c, Optional<StreamsRebalanceData> r) {
        }
    }
}
