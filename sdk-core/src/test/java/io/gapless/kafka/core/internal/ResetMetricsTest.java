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
package io.gapless.kafka.core.internal;

import io.gapless.kafka.core.spi.MetricDefinition;
import io.gapless.kafka.core.spi.ModeDecision;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link ResetMetrics#DEFINITIONS} is what the consumer registers: the generated metrics reference lists exactly these. */
class ResetMetricsTest {

    @Test
    void everyRegisteredMetricIsDefinedAndEveryDefinitionRegistered() {
        try (ResetMetrics metrics = new ResetMetrics("c-1", ModeDecision.Kind.EMULATE)) {
            metrics.recordReset("earliest", "new");
            // Kafka's Metrics adds its own kafka-metrics-count to every registry.
            List<MetricName> registered = metrics.metrics().keySet().stream().filter(m -> m.group().startsWith("gapless-")).toList();
            assertEquals(List.of(), registered.stream().filter(m -> ResetMetrics.DEFINITIONS.stream().noneMatch(d -> d.describes(m))).toList(),
                    "registered without a definition");
            assertEquals(List.<MetricDefinition>of(), ResetMetrics.DEFINITIONS.stream().filter(d -> registered.stream().noneMatch(d::describes)).toList(),
                    "defined but not registered");
        }
    }
}
