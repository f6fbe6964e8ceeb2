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
package io.gapless.kafka.streams;

import io.gapless.kafka.streams.internal.AutoOffsetResets;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.internals.AutoOffsetResetInternal;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What Kafka Streams itself reads from a {@link NewPartitionsReset} (its internal copy, as
 * {@code Consumed} and {@code Topology.addSource} make it): with a new-partitions policy attached,
 * {@code none}, so that a plain {@code StreamsBuilder} fails instead of resetting new partitions by
 * the base policy; without one, the base policy itself. The SDK still reads the declared base.
 */
class NewPartitionsResetInPlainKafkaTest {

    @Test
    void aNewPartitionsPolicyMakesKafkaStreamsSeeNone() {
        AutoOffsetReset policy = NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest());
        assertEquals(AutoOffsetResetStrategy.StrategyType.NONE, new AutoOffsetResetInternal(policy).offsetResetStrategy());
        assertEquals(io.gapless.kafka.core.ResetPolicy.LATEST, AutoOffsetResets.toResetPolicy(policy), "the SDK reads the declared base");
    }

    @Test
    void withoutANewPartitionsPolicyKafkaStreamsSeesTheBase() {
        assertEquals(AutoOffsetResetStrategy.StrategyType.LATEST, new AutoOffsetResetInternal(NewPartitionsReset.latest()).offsetResetStrategy());
        AutoOffsetResetInternal byDuration = new AutoOffsetResetInternal(NewPartitionsReset.byDuration(Duration.ofHours(1)));
        assertEquals(AutoOffsetResetStrategy.StrategyType.BY_DURATION, byDuration.offsetResetStrategy());
        assertEquals(Duration.ofHours(1), byDuration.duration());
    }
}
