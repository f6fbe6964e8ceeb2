package io.gapless.kafka.spring;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

import java.util.Map;

/** The {@code client-id} a client's metrics are tagged with: the id Spring names a consumer by for its listeners. */
final class ClientIdTag {
    private ClientIdTag() {
    }

    static String of(Map<MetricName, ? extends Metric> metrics) {
        for (MetricName name : metrics.keySet()) {
            String id = name.tags().get("client-id");
            if (id != null) {
                return id;
            }
        }
        return "unknown";
    }
}
