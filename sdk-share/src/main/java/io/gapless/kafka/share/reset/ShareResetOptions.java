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

import io.gapless.kafka.core.NewPartitionsMode;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.core.spi.BaselineTopic;

import java.time.Duration;
import java.util.Objects;

/**
 * A share consumer's KIP-1327 settings, as its config class parsed them.
 *
 * @param basePolicy      {@code share.auto.offset.reset}: the group's base policy as the SDK applies it
 * @param newPartitions   {@code share.auto.offset.reset.new.partitions}
 * @param mode            {@code gapless.new.partitions.mode}
 * @param baselineTopic   where the group's baseline lives (its own topic unless a shared one is configured)
 * @param timeout         upper bound of one baseline or admin call
 * @param checkIntervalMs how often the consumer looks for partitions added to its topics
 * @since 0.1.0
 */
public record ShareResetOptions(ResetPolicy basePolicy, ResetPolicy newPartitions, NewPartitionsMode mode, BaselineTopic baselineTopic,
                                Duration timeout, long checkIntervalMs) {
    public ShareResetOptions {
        Objects.requireNonNull(basePolicy, "basePolicy");
        Objects.requireNonNull(newPartitions, "newPartitions");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(baselineTopic, "baselineTopic");
        Objects.requireNonNull(timeout, "timeout");
    }
}
