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

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;

/**
 * Requests the embedded broker has received, per API, from its own request metrics
 * ({@code kafka.network:type=RequestMetrics,name=RequestsPerSec,request=<api>,version=<v>}, the
 * counts of every version summed). Read in this JVM, so only for the embedded broker; empty for
 * an external cluster. The difference of two counts over a loop, divided by its commits, is the
 * round trips per commit of that loop (every client of the loop counted, the SDK's own included).
 * Used by the benchmarks and by tests that bound the requests of a code path.
 *
 * @since 0.1.0
 */
public final class BrokerRequests {
    private static final String PATTERN = "kafka.network:type=RequestMetrics,name=RequestsPerSec,*";

    private BrokerRequests() {
    }

    /** Requests received so far per API name; empty where the broker is not in this JVM. */
    public static Map<String, Long> counts() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Map<String, Long> counts = new TreeMap<>();
        try {
            for (ObjectName name : server.queryNames(new ObjectName(PATTERN), null)) {
                String api = name.getKeyProperty("request");
                Object count = server.getAttribute(name, "Count");
                // FetchConsumer and FetchFollower are Fetch again, split by the sender.
                if (api != null && !api.equals("FetchConsumer") && !api.equals("FetchFollower") && count instanceof Number n) {
                    counts.merge(api, n.longValue(), Long::sum);
                }
            }
        } catch (javax.management.JMException e) {
            return Map.of();
        }
        return counts;
    }

    /** {@code after - before} per API, leaving out APIs with no requests in between. */
    public static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> delta = new TreeMap<>();
        after.forEach((api, n) -> {
            long d = n - before.getOrDefault(api, 0L);
            if (d > 0) {
                delta.put(api, d);
            }
        });
        return delta;
    }
}
