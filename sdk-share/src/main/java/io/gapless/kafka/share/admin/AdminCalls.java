package io.gapless.kafka.share.admin;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits for Admin futures, keeping Kafka's exception contract (the cause, not a wrapper). */
final class AdminCalls {
    private AdminCalls() {
    }

    static <T> T await(KafkaFuture<T> future, Duration timeout, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new org.apache.kafka.common.errors.InterruptException("Interrupted while trying to " + what, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof KafkaException ke) {
                throw ke;
            }
            throw new KafkaException("Failed to " + what, cause);
        } catch (TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException("Timed out after " + timeout + " trying to " + what, e);
        }
    }
}
