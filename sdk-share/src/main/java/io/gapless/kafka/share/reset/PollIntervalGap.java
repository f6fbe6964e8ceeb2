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
package io.gapless.kafka.share.reset;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigDef;

import java.util.Map;

/**
 * Whether Kafka may have taken this member out of its group since its previous poll. Kafka's share
 * consumer leaves the group when {@code poll()} is not called within {@code max.poll.interval.ms}
 * and joins again at the next poll; while it was out the group may have been empty, and only then
 * can an operator reset its offsets ({@code alterShareGroupOffsets} needs an empty group). Measured
 * from the start of the previous delegate poll, where Kafka resets its poll timer, so a gap Kafka
 * counts as a time-out is never missed; a slightly shorter one may be reported too, which only
 * costs a check (a member still in the group is assigned its partitions, which the check leaves
 * alone).
 */
final class PollIntervalGap {
    /** Kafka's default {@code max.poll.interval.ms} (ConsumerConfig's, not a public constant). */
    static final long KAFKA_DEFAULT_MS = 300_000L;

    private final long maxPollIntervalMs;
    private long lastPollMs = -1;

    PollIntervalGap(long maxPollIntervalMs) {
        if (maxPollIntervalMs <= 0) {
            throw new IllegalArgumentException("max.poll.interval.ms must be positive, got " + maxPollIntervalMs);
        }
        this.maxPollIntervalMs = maxPollIntervalMs;
    }

    /** The consumer's {@code max.poll.interval.ms} (Kafka's default where it is not set). */
    static PollIntervalGap of(Map<String, Object> userConfig) {
        Object value = userConfig.get(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG);
        if (value == null) {
            return new PollIntervalGap(KAFKA_DEFAULT_MS);
        }
        // Kafka's own parsing, so a bad value fails as the consumer would fail on it (a ConfigException naming it).
        return new PollIntervalGap(((Number) ConfigDef.parseType(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, value,
                ConfigDef.Type.INT)).longValue());
    }

    long maxPollIntervalMs() {
        return maxPollIntervalMs;
    }

    /** A delegate poll starts at {@code nowMs}: returns whether Kafka may have taken the member out of the group since the previous one. */
    boolean pollStarting(long nowMs) {
        boolean mayHaveLeft = lastPollMs >= 0 && nowMs - lastPollMs >= maxPollIntervalMs;
        lastPollMs = nowMs;
        return mayHaveLeft;
    }
}
