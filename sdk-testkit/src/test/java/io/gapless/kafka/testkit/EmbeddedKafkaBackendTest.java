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
package io.gapless.kafka.testkit;

import io.gapless.kafka.testkit.internal.TestcontainersKafka;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Choosing the backend of {@code @EmbeddedKafkaTest}: embedded by default, containers only where they can run. */
class EmbeddedKafkaBackendTest {
    private final String before = System.getProperty(EmbeddedKafka.BACKEND_PROPERTY);

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(EmbeddedKafka.BACKEND_PROPERTY);
        } else {
            System.setProperty(EmbeddedKafka.BACKEND_PROPERTY, before);
        }
    }

    @Test
    void embeddedIsTheDefault() {
        assumeTrue(System.getenv(EmbeddedKafka.BOOTSTRAP_ENV) == null, "an external cluster is configured");
        System.clearProperty(EmbeddedKafka.BACKEND_PROPERTY);
        assertFalse(EmbeddedKafka.usesTestcontainers());
        assertFalse(EmbeddedKafkaExtension.backendCondition().isDisabled());
    }

    @Test
    void anUnknownBackendIsNamed() {
        System.setProperty(EmbeddedKafka.BACKEND_PROPERTY, "docker");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, EmbeddedKafka::usesTestcontainers);
        assertTrue(e.getMessage().contains("'docker'"), e.getMessage());
    }

    @Test
    void theContainerBackendSkipsWithItsReasonWhereNoDockerEngineAnswers() {
        assumeTrue(System.getenv(EmbeddedKafka.BOOTSTRAP_ENV) == null, "an external cluster is configured");
        System.setProperty(EmbeddedKafka.BACKEND_PROPERTY, "testcontainers");
        ConditionEvaluationResult result = EmbeddedKafkaExtension.backendCondition();
        boolean canRun = TestcontainersKafka.unavailableReason().isEmpty();
        assertEquals(!canRun, result.isDisabled(), result.getReason().orElse(""));
        if (!canRun) {
            String reason = result.getReason().orElseThrow();
            assertTrue(reason.contains("Docker") || reason.contains("testcontainers-kafka"), reason);
            IllegalStateException e = assertThrows(IllegalStateException.class, EmbeddedKafka::testcontainers);
            assertTrue(e.getMessage().contains("Cannot run Kafka in a container"), e.getMessage());
        }
    }
}
