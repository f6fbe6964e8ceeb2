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

import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;

import java.util.Set;


/**
 * Kafka's authorization errors say which resource a broker refused at best ("Not authorized to
 * access topics: [t]"), often not even that ("Topic authorization failed.", "Cluster
 * authorization failed."), and never which operation was missing. The SDK's helper clients know
 * both: this gives the caller Kafka's own exception type back (callers still catch
 * {@link TopicAuthorizationException} and the like), with a message that names the operation and
 * the resource, for example {@code Not authorized: Write on topic __gapless_baseline.orders}.
 *
 * @since 0.1.0
 */
public final class Authorization {
    private static final String PREFIX = "Not authorized: ";

    private Authorization() {
    }

    /**
     * When {@code failure} is, or has as a cause (an {@link java.util.concurrent.ExecutionException}, a
     * {@link java.util.concurrent.CompletionException}, a producer's error state), one of Kafka's
     * {@link AuthorizationException}s: a new
     * exception of the same Kafka type whose message names {@code needed} (an ACL in the form
     * {@code <Operation> on <resource type> <name>}), with the original as its cause. Otherwise
     * {@code null}. An exception this method made already is returned as it is.
     */
    public static AuthorizationException explain(Throwable failure, String needed) {
        return explain(failure, needed, null, null);
    }

    /**
     * The {@link AuthorizationException} that {@code failure} is or has as a cause, or {@code null}:
     * Kafka wraps it too (ExecutionException, CompletionException, a producer's "error state"
     * KafkaException), and so does the SDK (BaselineUnavailableException).
     *
     * @param failure any failure, or {@code null}
     * @return the broker's refusal, or {@code null} when there is none
     * @since 0.1.0
     */
    public static AuthorizationException refusal(Throwable failure) {
        Throwable e = failure;
        while (e != null && !(e instanceof AuthorizationException) && e.getCause() != e) {
            e = e.getCause();
        }
        return e instanceof AuthorizationException refused ? refused : null;
    }

    /**
     * {@link #explain(Throwable, String)} for an ACL on one group or topic: the new exception's
     * {@link GroupAuthorizationException#groupId()} or
     * {@link TopicAuthorizationException#unauthorizedTopics()} names it where the broker's did not.
     */
    public static AuthorizationException explain(Throwable failure, String needed, ResourceType type, String name) {
        AuthorizationException original = refusal(failure);
        if (original == null) {
            return null;
        }
        if (original.getMessage() != null && original.getMessage().startsWith(PREFIX)) {
            return original;
        }
        String message = PREFIX + needed + " (the broker said: " + original.getMessage() + ")";
        AuthorizationException out;
        if (original instanceof TopicAuthorizationException t) {
            out = new TopicAuthorizationException(message, t.unauthorizedTopics().isEmpty() && type == ResourceType.TOPIC
                    ? Set.of(name) : t.unauthorizedTopics());
        } else if (original instanceof GroupAuthorizationException g) {
            out = new GroupAuthorizationException(message, g.groupId() == null && type == ResourceType.GROUP ? name : g.groupId());
        } else if (original instanceof TransactionalIdAuthorizationException) {
            out = new TransactionalIdAuthorizationException(message);
        } else if (original instanceof ClusterAuthorizationException) {
            return new ClusterAuthorizationException(message, original);
        } else {
            return new AuthorizationException(message, original);
        }
        out.initCause(original);
        return out;
    }

    /** {@link #explain(Throwable, String, ResourceType, String)}, or {@code failure} itself where it is not an authorization error. */
    public static RuntimeException explainOrRethrow(RuntimeException failure, String needed, ResourceType type, String name) {
        AuthorizationException explained = explain(failure, needed, type, name);
        return explained == null ? failure : explained;
    }
}
