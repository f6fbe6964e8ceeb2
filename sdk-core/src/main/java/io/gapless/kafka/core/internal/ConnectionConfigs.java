package io.gapless.kafka.core.internal;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.util.HashMap;
import java.util.Map;

/**
 * The SDK's own helper clients (admin, baseline producer and reader) must reach the same cluster
 * with the same security as the user's client, and nothing else of its settings.
 */
public final class ConnectionConfigs {
    private ConnectionConfigs() {
    }

    /** The user's connection and security settings, with a derived client id. */
    public static Map<String, Object> from(Map<String, Object> userConfig, String clientIdSuffix) {
        Map<String, Object> out = new HashMap<>();
        for (Map.Entry<String, Object> e : userConfig.entrySet()) {
            String key = e.getKey();
            if (AdminClientConfig.configNames().contains(key) && e.getValue() != null
                    && !key.equals(CommonClientConfigs.CLIENT_ID_CONFIG)
                    // the helpers bound each call themselves; Admin also refuses a value below request.timeout.ms
                    && !key.equals(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG)
                    && !key.startsWith("metric") && !key.equals(CommonClientConfigs.METRIC_REPORTER_CLASSES_CONFIG)) {
                out.put(key, e.getValue());
            }
        }
        Object clientId = userConfig.get(CommonClientConfigs.CLIENT_ID_CONFIG);
        String base = clientId == null || clientId.toString().isBlank() ? "gapless" : clientId.toString();
        out.put(CommonClientConfigs.CLIENT_ID_CONFIG, base + "-" + clientIdSuffix);
        return out;
    }
}
