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
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Validates a setting of the {@code auto.offset.reset} value space, with or without {@code none}.
 *
 * @since 0.1.0
 */
public final class ResetPolicyValidator implements ConfigDef.Validator {
    private final String whyNoNone;

    private ResetPolicyValidator(String whyNoNone) {
        this.whyNoNone = whyNoNone;
    }

    /** earliest, latest, none and by_duration. */
    public static ResetPolicyValidator anyPolicy() {
        return new ResetPolicyValidator(null);
    }

    /** earliest, latest and by_duration; {@code none} is refused with {@code whyNoNone}. */
    public static ResetPolicyValidator withoutNone(String whyNoNone) {
        return new ResetPolicyValidator(whyNoNone);
    }

    @Override
    public void ensureValid(String name, Object value) {
        if (value == null) {
            return;
        }
        ResetPolicy policy;
        try {
            policy = ResetPolicy.parse(value.toString());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name, value, e.getMessage());
        }
        if (whyNoNone != null && policy.kind() == ResetPolicy.Kind.NONE) {
            throw new ConfigException(name, value, whyNoNone);
        }
    }

    @Override
    public String toString() {
        return whyNoNone == null ? "earliest, latest, none, by_duration:<ISO-8601 duration>" : "earliest, latest, by_duration:<ISO-8601 duration>";
    }
}
