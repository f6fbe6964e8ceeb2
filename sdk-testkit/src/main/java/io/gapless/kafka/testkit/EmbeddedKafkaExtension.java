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
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension behind {@link EmbeddedKafkaTest}: resolves {@link EmbeddedKafka} parameters to
 * one cluster per test JVM, kept in the root extension store so that JUnit closes it at the end.
 * With {@code -Dgapless.testkit.backend=testcontainers} and no Docker engine (or no Testcontainers
 * on the classpath) it skips the tests, naming the reason.
 *
 * @since 0.1.0
 */
public class EmbeddedKafkaExtension implements ParameterResolver, ExecutionCondition {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(EmbeddedKafkaExtension.class);

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return backendCondition();
    }

    /** Enabled unless the testcontainers backend is chosen and cannot run here. */
    static ConditionEvaluationResult backendCondition() {
        String external = System.getenv(EmbeddedKafka.BOOTSTRAP_ENV);
        if (external != null && !external.isBlank()) {
            return ConditionEvaluationResult.enabled("external cluster " + external);
        }
        if (!EmbeddedKafka.usesTestcontainers()) {
            return ConditionEvaluationResult.enabled("embedded cluster");
        }
        return TestcontainersKafka.unavailableReason()
                .map(reason -> ConditionEvaluationResult.disabled(EmbeddedKafka.BACKEND_PROPERTY
                        + "=testcontainers, but " + reason + ": skipped"))
                .orElseGet(() -> ConditionEvaluationResult.enabled("Kafka in a container"));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == EmbeddedKafka.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return shared(extensionContext);
    }

    /** The cluster shared by every test of this JVM, started on first call. */
    public static EmbeddedKafka shared(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent("cluster", key -> EmbeddedKafka.forTests(), EmbeddedKafka.class);
    }
}
