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

import io.gapless.kafka.core.ResetPolicy;

import java.util.Objects;
import java.util.Optional;

/** The pair of policies that position one topic's partitions: the base policy and the optional new-partitions policy. */
public record TopicResetPolicies(ResetPolicy base, Optional<ResetPolicy> newPartitions) {
    public TopicResetPolicies {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(newPartitions, "newPartitions");
    }
}
