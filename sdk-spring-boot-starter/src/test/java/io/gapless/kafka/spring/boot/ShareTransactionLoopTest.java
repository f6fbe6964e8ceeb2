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
package io.gapless.kafka.spring.boot;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.listener.MessageListener;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The container loop's pure decisions: which records a failure counts against, attempts, which listeners it can call. */
class ShareTransactionLoopTest {
    private static final List<ConsumerRecord<String, String>> POLL = List.of(record(0, 10), record(1, 20), record(0, 11));

    @Test
    void aBatchListenerFailedExceptionNamesTheRecordByRecordOrIndex() {
        ConsumerRecord<String, String> copy = record(1, 20);   // an equal record, not the same instance
        assertEquals(List.of(POLL.get(1)), ShareTransactionLoop.failedRecords(new BatchListenerFailedException("bad", copy), POLL));
        assertEquals(List.of(POLL.get(2)), ShareTransactionLoop.failedRecords(new BatchListenerFailedException("bad", 2), POLL));
        RuntimeException wrapped = new ListenerExecutionFailedException("listener threw", new BatchListenerFailedException("bad", 0));
        assertEquals(List.of(POLL.get(0)), ShareTransactionLoop.failedRecords(wrapped, POLL), "found through the adapter's wrapper");
    }

    @Test
    void anyOtherExceptionFailsTheWholeBatch() {
        assertEquals(POLL, ShareTransactionLoop.failedRecords(new IllegalStateException("bad"), POLL));
        assertEquals(POLL, ShareTransactionLoop.failedRecords(new BatchListenerFailedException("bad", 7), POLL), "an index outside the batch");
    }

    @Test
    void attemptsCountListenerFailuresPerRecordUntilItIsSettled() {
        DeliveryAttempts attempts = new DeliveryAttempts();
        assertEquals(1, attempts.failed(record(0, 10)));
        assertEquals(2, attempts.failed(record(0, 10)), "an equal record from a later poll counts on");
        assertEquals(1, attempts.failed(record(0, 11)));
        attempts.settled(record(0, 10));
        assertEquals(1, attempts.failed(record(0, 10)));
    }

    @Test
    void recordAndBatchListenersAreCalledOthersRefused() {
        List<String> seen = new ArrayList<>();
        ListenerInvoker<String, String> records = new ListenerInvoker<>((MessageListener<String, String>) r -> seen.add(r.value()));
        assertFalse(records.batch());
        records.onRecord(POLL.get(0));
        ListenerInvoker<String, String> batch = new ListenerInvoker<>((BatchMessageListener<String, String>) rs -> seen.add("batch of " + rs.size()));
        assertTrue(batch.batch());
        batch.onBatch(POLL);
        assertEquals(List.of("v-0-10", "batch of 3"), seen);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ListenerInvoker<String, String>("not a listener"));
        assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    }

    private static ConsumerRecord<String, String> record(int partition, long offset) {
        return new ConsumerRecord<>("payments", partition, offset, "k", "v-" + partition + "-" + offset);
    }
}
