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
package io.gapless.kafka.core.internal;

import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.BaselineUnavailablePolicy;
import io.gapless.kafka.core.internal.baseline.GroupBaselineClassifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * The group-baseline work one consumer does besides classification, all on its
 * {@link BaselineWorker} so that the polling thread never waits for it: warm-up at each new
 * subscription, registration of assigned topics, and the progress records that tell a later
 * incarnation of the group apart. Shared by {@code GaplessConsumer} and the Kafka Streams main
 * consumer. Used from the polling thread; completions arrive on the worker.
 */
public final class BaselineSession {
    private static final Logger log = LoggerFactory.getLogger(BaselineSession.class);
    /** How often a group whose baseline does not yet know of committed offsets asks the broker. */
    private static final long PROGRESS_CHECK_INTERVAL_MS = 5_000;

    private final GroupBaselineClassifier classifier;
    private final BaselineWorker worker;
    private final BaselineUnavailablePolicy unavailablePolicy;
    private final String owner;
    private final Set<String> registeredTopics = ConcurrentHashMap.newKeySet();
    private final Set<String> registering = ConcurrentHashMap.newKeySet();
    private final AtomicReference<RuntimeException> asyncFailure = new AtomicReference<>();
    private boolean warmUpStarted;
    private long nextProgressCheckMs;
    private CompletableFuture<?> progressTask = CompletableFuture.completedFuture(null);

    /** @param owner the consumer's client id (or the group), for the log */
    public BaselineSession(GroupBaselineClassifier classifier, BaselineWorker worker, BaselineUnavailablePolicy unavailablePolicy,
                           String owner) {
        this.classifier = classifier;
        this.worker = worker;
        this.unavailablePolicy = unavailablePolicy;
        this.owner = owner;
    }

    /** A new subscription or assignment: registration starts again, and the baseline is warmed up while the consumer joins. */
    public void newSession() {
        classifier.newSession();
        registeredTopics.clear();
        worker.submitInterruptible(() -> {
            try {
                classifier.prepare();
            } catch (RuntimeException e) {
                log.debug("Preparing the baseline of {} failed; the first real use reports it", owner, e);
            }
            return null;
        });
        warmUpStarted = true;
        nextProgressCheckMs = System.currentTimeMillis() + PROGRESS_CHECK_INTERVAL_MS;
    }

    /** Records {@code topics} in the baseline, on the worker (classification, queued behind it, sees it). */
    public void register(Collection<String> topics) {
        Set<String> todo = topics.stream().filter(t -> !registeredTopics.contains(t) && !registering.contains(t)).collect(Collectors.toSet());
        if (todo.isEmpty()) {
            return;
        }
        registering.addAll(todo);
        worker.submit(() -> classifier.register(todo)).whenComplete((b, e) -> {
            registering.removeAll(todo);
            if (e == null) {
                registeredTopics.addAll(todo);
                return;
            }
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof BaselineUnavailableException bue && unavailablePolicy == BaselineUnavailablePolicy.FAIL) {
                asyncFailure.compareAndSet(null, bue);
            } else {
                log.warn("Could not record the group of topics {} in the group baseline: {}", todo, cause.toString());
            }
        });
    }

    /** A registration that failed on the worker under {@code gapless.baseline.unavailable=fail} is reported once, here. */
    public void throwAsyncFailure() {
        RuntimeException e = asyncFailure.getAndSet(null);
        if (e != null) {
            throw e;
        }
    }

    /** The consumer committed: the baseline records once that this incarnation of the group has progress. */
    public void committed() {
        if (!classifier.progressRecorded() && progressTask.isDone()) {
            progressTask = worker.submit(() -> {
                classifier.recordProgress();
                return null;
            });
        }
    }

    /** Commits the consumer does not see (auto-commit, asynchronous or transactional ones): ask the broker now and then until progress is recorded. */
    public void maybeCheckProgress() {
        long now = System.currentTimeMillis();
        if (!warmUpStarted || classifier.progressRecorded() || !progressTask.isDone() || now < nextProgressCheckMs) {
            return;
        }
        nextProgressCheckMs = now + PROGRESS_CHECK_INTERVAL_MS;
        progressTask = worker.submitInterruptible(() -> {
            try {
                classifier.checkProgress();
            } catch (RuntimeException e) {
                log.debug("Checking the progress of the group of {} failed; checked again later", owner, e);
            }
            return null;
        });
    }
}
