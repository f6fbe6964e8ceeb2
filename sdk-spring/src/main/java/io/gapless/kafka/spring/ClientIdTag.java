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
