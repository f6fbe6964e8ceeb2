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

import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.streams.NewPartitionsReset;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.internals.ConsumerWrapper;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GaplessMainConsumerTest {

    @Test
    void overridesEveryConsumerMethod() throws Exception {
        for (Method m : Consumer.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            Method own = GaplessMainConsumer.class.getMethod(m.getName(), m.getParameterTypes());
            // Implemented by GaplessMainConsumer or the ForwardingConsumer it extends, never an interface default.
            assertFalse(own.getDeclaringClass().isInterface() || java.lang.reflect.Modifier.isAbstract(own.getModifiers()), "not forwarded: " + m);
        }
    }

    @Test
    void streamsProtocolWrapperOverridesTheMethodsThatCarryTheFeature() throws Exception {
        for (String name : List.of("poll", "position", "seek", "seekToBeginning", "seekToEnd", "wakeup", "subscribe", "assign", "unsubscribe", "metrics", "close", "wrapConsumer")) {
            for (Method m : ConsumerWrapper.class.getMethods()) {
                if (m.getName().equals(name)) {
                    assertEquals(GaplessConsumerWrapper.class,
                            GaplessConsumerWrapper.class.getMethod(name, m.getParameterTypes()).getDeclaringClass(), "not overridden: " + m);
                }
            }
        }
    }

    @Test
    void resolvesSourcePartitionsAndPassesInternalOnesToKafkaStreams() {
        SourcePolicies sources = new SourcePolicies();
        sources.recordTopics(List.of("orders"), NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.latest()));
        ResetPlan plan = ResetPlan.builder().applicationId("app").sources(sources).globalBase(ResetPolicy.EARLIEST)
                .globalNewPartitions(Optional.empty()).baselineTopic(BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, "app")).build();
        MockConsumer<byte[], byte[]> mock = new MockConsumer<>(AutoOffsetResetStrategy.NONE.name());
        TopicPartition source = new TopicPartition("orders", 0);
        TopicPartition repartition = new TopicPartition("app-counts-repartition", 0);
        mock.assign(List.of(source, repartition));
        mock.updateBeginningOffsets(Map.of(source, 0L, repartition, 0L));
        mock.updateEndOffsets(Map.of(source, 42L, repartition, 7L));
        mock.setPollException(new NoOffsetForPartitionException(Set.of(source, repartition)));

        try (GaplessMainConsumer consumer = new GaplessMainConsumer(mock,
                new SourceResetEmulation(plan, Map.of(ConsumerConfig.GROUP_ID_CONFIG, "app", ConsumerConfig.CLIENT_ID_CONFIG, "t")))) {
            NoOffsetForPartitionException e = assertThrows(NoOffsetForPartitionException.class, () -> consumer.poll(Duration.ofMillis(10)));
            assertEquals(Set.of(repartition), e.partitions(), "only the repartition partition is left to Kafka Streams");
            assertEquals(42L, consumer.position(source), "the source partition was reset by its policy (latest)");
            assertTrue(consumer.metrics().keySet().stream().anyMatch(m -> m.name().equals("resets-total")), "the reset is counted");
        }
    }
}
