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

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.security.auth.SecurityProtocol;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The SDK's own helper clients (admin, baseline producer and reader, ledger views, probes) must
 * reach the same cluster with the same security as the user's client, and get nothing else of its
 * settings: no metric reporters or interceptors (they would see the SDK's internal traffic as the
 * application's), and no secret the protocol does not use (a {@code sasl.jaas.config} is not
 * copied to a client that does not speak SASL, TLS key material not to one without TLS).
 * {@code config.providers} and their settings are copied, so {@code ${file:...}} placeholders
 * resolve in the helpers as they do in the user's client.
 *
 * @since 0.1.0
 */
public final class ConnectionConfigs {
    private static final String CONFIG_PROVIDERS_PREFIX = AbstractConfig.CONFIG_PROVIDERS_CONFIG + ".";

    private ConnectionConfigs() {
    }

    /** The user's connection and security settings, with a derived client id. */
    public static Map<String, Object> from(Map<String, Object> userConfig, String clientIdSuffix) {
        SecurityProtocol protocol = protocol(userConfig.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG));
        Map<String, Object> out = new HashMap<>();
        for (Map.Entry<String, Object> e : userConfig.entrySet()) {
            String key = e.getKey();
            if (e.getValue() != null && (connectionKey(key, protocol) || key.startsWith(CONFIG_PROVIDERS_PREFIX))) {
                out.put(key, e.getValue());
            }
        }
        Object clientId = userConfig.get(CommonClientConfigs.CLIENT_ID_CONFIG);
        String base = clientId == null || clientId.toString().isBlank() ? "gapless" : clientId.toString();
        out.put(CommonClientConfigs.CLIENT_ID_CONFIG, base + "-" + clientIdSuffix);
        return out;
    }

    private static boolean connectionKey(String key, SecurityProtocol protocol) {
        if (!AdminClientConfig.configNames().contains(key) || key.equals(CommonClientConfigs.CLIENT_ID_CONFIG)
                // the helpers bound each call themselves; Admin also refuses a value below request.timeout.ms
                || key.equals(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG)
                || key.startsWith("metric") || key.equals(CommonClientConfigs.METRIC_REPORTER_CLASSES_CONFIG)) {
            return false;
        }
        if (protocol == null) {
            return true; // a value Kafka will refuse: let the helper client say so, with everything the user gave
        }
        if (key.startsWith("sasl.")) {
            return protocol == SecurityProtocol.SASL_PLAINTEXT || protocol == SecurityProtocol.SASL_SSL;
        }
        if (key.startsWith("ssl.")) {
            return protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL;
        }
        return true;
    }

    private static SecurityProtocol protocol(Object value) {
        if (value == null) {
            return SecurityProtocol.PLAINTEXT;
        }
        try {
            return SecurityProtocol.forName(value.toString().trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** A copy of {@code connection} whose client id has {@code suffix} appended: one id per helper client (JMX names, quotas, broker logs). */
    public static Map<String, Object> withClientIdSuffix(Map<String, Object> connection, String suffix) {
        Map<String, Object> out = new HashMap<>(connection);
        Object clientId = connection.get(CommonClientConfigs.CLIENT_ID_CONFIG);
        out.put(CommonClientConfigs.CLIENT_ID_CONFIG, (clientId == null ? "gapless" : clientId) + "-" + suffix);
        return out;
    }
}
