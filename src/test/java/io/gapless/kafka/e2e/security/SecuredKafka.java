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
package io.gapless.kafka.e2e.security;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.KafkaSecurity;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves an {@link EmbeddedKafka} parameter to one SASL_SSL cluster (SCRAM-SHA-512 over TLS,
 * StandardAuthorizer, no ACL means no access) shared by the security suites of this JVM and closed
 * by JUnit at the end. Each test works with principals, groups and topics of its own.
 */
final class SecuredKafka implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SecuredKafka.class);

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == EmbeddedKafka.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return extensionContext.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent("sasl-ssl",
                key -> EmbeddedKafka.builder().security(KafkaSecurity.saslSsl()).start(), EmbeddedKafka.class);
    }
}
