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
 * How the SDK delivers {@code auto.offset.reset.new.partitions}: {@code gapless.new.partitions.mode}.
 *
 * @since 0.1.0
 */
public enum NewPartitionsMode {
    /** Native where kafka-clients and the broker support KIP-1327, emulation otherwise. */
    AUTO,
    /** Native only; construction fails where the client or broker lacks support. */
    NATIVE,
    /** Always the SDK's client-side emulation (group baseline), even where native support exists. */
    EMULATE;

    /** The configuration value, lower case. */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
