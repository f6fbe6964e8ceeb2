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
package io.gapless.kafka.core.internal;

import io.gapless.kafka.core.spi.KafkaBackoff;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.Map;

/**
 * When each partition whose resolution failed retriably may be tried again: Kafka's own jittered
 * exponential back-off with the consumer's defaults ({@code retry.backoff.ms} 100 ms up to
 * {@code retry.backoff.max.ms} 1 s), per partition, so that one partition that keeps failing
 * neither delays the others nor costs a look-up on every poll. Used from the polling thread.
 */
final class ResolutionRetries {
    private static final KafkaBackoff BACKOFF = new KafkaBackoff(CommonClientConfigs.DEFAULT_RETRY_BACKOFF_MS,
            CommonClientConfigs.RETRY_BACKOFF_EXP_BASE, CommonClientConfigs.DEFAULT_RETRY_BACKOFF_MAX_MS,
            CommonClientConfigs.RETRY_BACKOFF_JITTER);

    private record Attempt(int failures, long dueAtMs) {
    }

    private final Map<TopicPartition, Attempt> failed = new HashMap<>();

    /** Records a failed resolution of {@code tp} at {@code nowMs}; returns the wait before the next attempt. */
    long failed(TopicPartition tp, long nowMs) {
        int failures = failed.containsKey(tp) ? failed.get(tp).failures() + 1 : 1;
        long wait = BACKOFF.backoff(failures - 1);
        failed.put(tp, new Attempt(failures, nowMs + wait));
        return wait;
    }

    /** Whether {@code tp} may be resolved at {@code nowMs}: it never failed, or its back-off ran out. */
    boolean due(TopicPartition tp, long nowMs) {
        Attempt a = failed.get(tp);
        return a == null || a.dueAtMs() <= nowMs;
    }

    /** When {@code tp} may be tried again; 0 when it may now. */
    long dueAtMs(TopicPartition tp) {
        Attempt a = failed.get(tp);
        return a == null ? 0 : a.dueAtMs();
    }

    /** {@code tp} was positioned, left the assignment or was seeked by the caller: its next failure starts afresh. */
    void forget(TopicPartition tp) {
        failed.remove(tp);
    }

    void clear() {
        failed.clear();
    }
}
