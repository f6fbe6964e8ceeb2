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
package io.gapless.kafka.share.admin;

import io.gapless.kafka.core.spi.Authorization;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.resource.ResourceType;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for Admin futures, keeping Kafka's exception contract (the cause, not a wrapper); a
 * refusal comes out as Kafka's own authorization exception naming the ACL the call needs.
 */
final class AdminCalls {
    private AdminCalls() {
    }

    static <T> T await(KafkaFuture<T> future, Duration timeout, String what) {
        return await(future, timeout, what, null, null);
    }

    /** As {@link #await(KafkaFuture, Duration, String)}; a refusal names {@code operation} (for example {@code AlterConfigs}) on the group. */
    static <T> T await(KafkaFuture<T> future, Duration timeout, String what, String operation, String group) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new org.apache.kafka.common.errors.InterruptException("Interrupted while trying to " + what, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof KafkaException ke) {
                throw operation == null ? ke : Authorization.explainOrRethrow(ke, operation + " on group " + group
                        + (operation.equals("DescribeConfigs") ? " (or AlterConfigs, which implies it)" : "") + ", to " + what,
                        ResourceType.GROUP, group);
            }
            throw new KafkaException("Failed to " + what, cause);
        } catch (TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException("Timed out after " + timeout + " trying to " + what, e);
        }
    }
}
