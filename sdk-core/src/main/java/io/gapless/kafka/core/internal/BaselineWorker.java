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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The one background thread of a consumer's reset emulation: baseline warm-up, registration,
 * classification and offset look-ups run here, in submission order, so the polling thread never
 * blocks on them beyond its own timeout. The thread starts on the first task.
 *
 * <p>{@link #close(Duration)} takes no new tasks, interrupts the interruptible ones at once (warm-up,
 * checks, classification), lets the others (baseline writes) finish within the timeout and then
 * interrupts them too. A task
 * submitted after close completes exceptionally and never runs.
 */
public final class BaselineWorker implements Executor, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BaselineWorker.class);

    private final ExecutorService executor;
    private final Set<Future<?>> interruptOnClose = ConcurrentHashMap.newKeySet();

    /** @param threadName the worker thread's name */
    public BaselineWorker(String threadName) {
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code task} on the worker; the future fails with {@link RejectedExecutionException} after close. */
    public <T> CompletableFuture<T> submit(Supplier<T> task) {
        try {
            return CompletableFuture.supplyAsync(task, executor);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Runs {@code task} on the worker; {@link #close} interrupts it at once instead of waiting for
     * it (work nobody needs after close: warm-up, checks, classification).
     */
    public <T> CompletableFuture<T> submitInterruptible(Supplier<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            interruptOnClose.removeIf(Future::isDone);
            interruptOnClose.add(executor.submit(() -> {
                try {
                    result.complete(task.get());
                } catch (RuntimeException | Error e) {
                    result.completeExceptionally(e);
                }
            }));
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /** Runs {@code command} as {@link #submitInterruptible} does. */
    @Override
    public void execute(Runnable command) {
        submitInterruptible(() -> {
            command.run();
            return null;
        });
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    /** Stops the worker within {@code timeout}; see the class comment. */
    public void close(Duration timeout) {
        executor.shutdown();
        interruptOnClose.forEach(f -> f.cancel(true));
        try {
            if (!executor.awaitTermination(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
