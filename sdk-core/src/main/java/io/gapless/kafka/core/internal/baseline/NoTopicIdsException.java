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
package io.gapless.kafka.core.internal.baseline;

import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * The cluster gave a topic no id (brokers before Kafka 2.8): the SDK refuses rather than classify
 * at random. Users see Kafka's {@link UnsupportedVersionException}; the type of its own lets the
 * baseline store pass it through unwrapped (it is no {@code BaselineUnavailableException}: no
 * retry and no {@code gapless.baseline.unavailable=base-policy} fallback can make it work).
 */
final class NoTopicIdsException extends UnsupportedVersionException {
    private static final long serialVersionUID = 1L;

    NoTopicIdsException(String message) {
        super(message);
    }
}
