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
package io.gapless.kafka.core;

import java.util.Locale;

/**
 * What to do when the group baseline cannot be read or written: {@code gapless.baseline.unavailable}.
 *
 * @since 0.1.0
 */
public enum BaselineUnavailablePolicy {
    /** Fail the poll with a {@link BaselineUnavailableException} (the default): nothing is skipped. */
    FAIL,
    /** Treat every partition as pre-existing and apply the base {@code auto.offset.reset}, with a WARN. */
    BASE_POLICY;

    /** The configuration value, lower case with a hyphen. */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
