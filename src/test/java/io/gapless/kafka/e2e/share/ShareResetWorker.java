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
package io.gapless.kafka.e2e.share;

import io.gapless.kafka.share.GaplessShareConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A share consumer as an application runs it, in a child JVM of the issue 28 fault suite: a plain
 * {@link KafkaShareConsumer} ({@code kind=plain}) or a {@link GaplessShareConsumer} with
 * {@code share.auto.offset.reset.new.partitions} ({@code kind=sdk}), in {@code mode=implicit} or
 * {@code explicit} (each record acknowledged, then {@code commitSync}). Prints, as {@code EVENT}
 * lines: {@code READY}; {@code SEEN <value>,...} for every poll that returned records, before they
 * are acknowledged; {@code SKIPPED <n>} when the SDK's {@code records-skipped-before-start-total}
 * grows; {@code POLLFAIL <exception>} for a poll or commit that threw (the loop goes on).
 */
public final class ShareResetWorker {
    private ShareResetWorker() {
    }

    public static void main(String[] argv) throws InterruptedException {
        Map<String, String> args = new HashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("bootstrap.servers", args.get("bootstrap"));
        cfg.put("group.id", args.get("group"));
        cfg.put("client.id", args.get("id"));
        boolean explicit = "explicit".equals(args.get("mode"));
        cfg.put("share.acknowledgement.mode", explicit ? "explicit" : "implicit");
        boolean sdk = "sdk".equals(args.get("kind"));
        ShareConsumer<String, String> consumer;
        if (sdk) {
            cfg.put("share.auto.offset.reset", args.get("base"));
            cfg.put("share.auto.offset.reset.new.partitions", args.get("new"));
            cfg.put("gapless.share.partition.check.interval.ms", 200L);
            cfg.put("gapless.baseline.timeout.ms", 3_000L);
            consumer = new GaplessShareConsumer<>(cfg, new StringDeserializer(), new StringDeserializer());
        } else {
            consumer = new KafkaShareConsumer<>(cfg, new StringDeserializer(), new StringDeserializer());
        }
        consumer.subscribe(List.of(args.get("topic")));
        event("READY");
        double skipped = 0;
        while (true) {
            try {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                if (!records.isEmpty()) {
                    StringBuilder seen = new StringBuilder("SEEN ");
                    for (ConsumerRecord<String, String> r : records) {
                        seen.append(r.value()).append(',');
                    }
                    event(seen.substring(0, seen.length() - 1));
                    if (explicit) {
                        records.forEach(consumer::acknowledge);
                        consumer.commitSync();
                    }
                }
            } catch (RuntimeException e) {
                event("POLLFAIL " + e.toString().replace('\n', ' '));
                Thread.sleep(200);
            }
            double now = metric(consumer, "records-skipped-before-start-total");
            if (now > skipped) {
                event("SKIPPED " + (long) (now - skipped));
                skipped = now;
            }
        }
    }

    private static double metric(ShareConsumer<?, ?> consumer, String name) {
        double sum = 0;
        for (Map.Entry<MetricName, ? extends Metric> m : consumer.metrics().entrySet()) {
            if (m.getKey().name().equals(name)) {
                sum += ((Number) m.getValue().metricValue()).doubleValue();
            }
        }
        return sum;
    }

    private static void event(String what) {
        System.out.println("EVENT " + what);
        System.out.flush();
    }
}
