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

import org.apache.kafka.common.KafkaException;

/**
 * The group baseline that tells new partitions from pre-existing ones could not be read or
 * written (topic missing and not creatable, not authorized, wrong cleanup policy, timeout). No
 * offset was reset or committed on the way; the affected partitions stay unpositioned.
 *
 * @since 0.1.0
 */
public class BaselineUnavailableException extends KafkaException {
    private static final long serialVersionUID = 1L;

    public BaselineUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public BaselineUnavailableException(String message) {
        super(message);
    }
}
