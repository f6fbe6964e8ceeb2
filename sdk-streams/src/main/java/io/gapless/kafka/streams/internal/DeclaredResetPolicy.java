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
package io.gapless.kafka.streams.internal;

import org.apache.kafka.streams.AutoOffsetReset;

import java.util.Optional;

/**
 * What the SDK reads from a policy that keeps its declared base apart from what Kafka Streams sees
 * and may carry a new-partitions policy ({@code NewPartitionsReset}); lets this package read it
 * without depending on the public API package.
 */
public interface DeclaredResetPolicy {
    /** The declared base policy, as a plain {@code AutoOffsetReset}. */
    AutoOffsetReset basePolicy();

    /** The policy for newly expanded partitions, empty when none is attached. */
    Optional<AutoOffsetReset> newPartitionsResetPolicy();
}
