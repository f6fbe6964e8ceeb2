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
package io.gapless.kafka.core.spi;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What of the user's settings the SDK's helper clients get: the connection and what its protocol uses, nothing else. */
class ConnectionConfigsTest {
    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";";

    private static Map<String, Object> user(String protocol) {
        Map<String, Object> m = new HashMap<>();
        m.put("bootstrap.servers", "broker:9093");
        m.put("client.id", "orders");
        if (protocol != null) {
            m.put("security.protocol", protocol);
        }
        m.put("sasl.mechanism", "SCRAM-SHA-512");
        m.put("sasl.jaas.config", JAAS);
        m.put("ssl.truststore.location", "/etc/kafka/truststore.jks");
        m.put("ssl.truststore.password", "trust-secret");
        m.put("ssl.keystore.location", "/etc/kafka/keystore.jks");
        m.put("ssl.keystore.password", "key-secret");
        m.put("ssl.key.password", "key-secret");
        m.put("interceptor.classes", "com.example.AuditInterceptor");
        m.put("metric.reporters", "com.example.Reporter");
        m.put("metrics.recording.level", "DEBUG");
        m.put("default.api.timeout.ms", 100);
        m.put("group.id", "orders-service");
        m.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        return m;
    }

    @Test
    void saslSslGetsTheLoginAndTheTrustAndKeyStores() {
        Map<String, Object> out = ConnectionConfigs.from(user("SASL_SSL"), "baseline");
        assertEquals("SASL_SSL", out.get("security.protocol"));
        assertEquals(JAAS, out.get("sasl.jaas.config"));
        assertEquals("SCRAM-SHA-512", out.get("sasl.mechanism"));
        assertEquals("trust-secret", out.get("ssl.truststore.password"));
        assertEquals("key-secret", out.get("ssl.keystore.password"), "a SASL_SSL listener may require client certificates");
        assertEquals("orders-baseline", out.get("client.id"));
    }

    @Test
    void secretsTheProtocolDoesNotUseAreNotCopied() {
        Map<String, Object> plaintext = ConnectionConfigs.from(user(null), "probe");
        assertFalse(plaintext.containsKey("sasl.jaas.config"), "PLAINTEXT: no JAAS line");
        assertFalse(plaintext.containsKey("ssl.keystore.password"), "PLAINTEXT: no key store password");
        assertFalse(plaintext.containsKey("ssl.truststore.password"));
        Map<String, Object> ssl = ConnectionConfigs.from(user("ssl"), "probe");
        assertFalse(ssl.containsKey("sasl.jaas.config"), "SSL: no JAAS line");
        assertEquals("key-secret", ssl.get("ssl.key.password"), "SSL: the client certificate's key");
        Map<String, Object> saslPlaintext = ConnectionConfigs.from(user("SASL_PLAINTEXT"), "probe");
        assertEquals(JAAS, saslPlaintext.get("sasl.jaas.config"));
        assertFalse(saslPlaintext.keySet().stream().anyMatch(k -> k.startsWith("ssl.")), "SASL_PLAINTEXT: no TLS settings");
    }

    @Test
    void noInterceptorMetricReporterOrConsumerSetting() {
        Map<String, Object> out = ConnectionConfigs.from(user("SASL_SSL"), "baseline");
        for (String key : new String[]{"interceptor.classes", "metric.reporters", "metrics.recording.level", "default.api.timeout.ms",
            "group.id", "key.deserializer"}) {
            assertFalse(out.containsKey(key), key);
        }
    }

    @Test
    void configProvidersAndTheirSettingsAreCopiedSoPlaceholdersResolve() {
        Map<String, Object> m = user("SASL_SSL");
        m.put("config.providers", "file");
        m.put("config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");
        m.put("sasl.jaas.config", "${file:/etc/kafka/secrets.properties:jaas}");
        Map<String, Object> out = ConnectionConfigs.from(m, "baseline");
        assertEquals("file", out.get("config.providers"));
        assertEquals("org.apache.kafka.common.config.provider.FileConfigProvider", out.get("config.providers.file.class"));
        assertTrue(out.get("sasl.jaas.config").toString().startsWith("${file:"));
    }
}
