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

import org.apache.kafka.common.serialization.Deserializer;

import java.util.Map;

/** Deserializer instances given to a factory are configured with each consumer's settings, unless the user says not to (Spring's rule). */
final class Deserializers {
    private Deserializers() {
    }

    static <T> Deserializer<T> configured(Deserializer<T> deserializer, Map<String, Object> configs, boolean isKey, boolean configure) {
        if (deserializer != null && configure) {
            deserializer.configure(configs, isKey);
        }
        return deserializer;
    }
}
