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
package io.gapless.kafka.benchmarks;

import io.gapless.kafka.share.txn.TransactionPhase;
import io.gapless.kafka.spring.GaplessShareConsumerFactory;
import io.gapless.kafka.spring.boot.TransactionalShareListenerContainer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.MessageListener;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Spring Boot starter's container-managed transactional share listener: one consumer thread,
 * a record listener that only calls {@code template.send}, one transaction per poll (the container
 * sends the acknowledgements and commits). The run's time is from the first record handed to the
 * listener to the end of the commit that acknowledged the last of them (the producer's
 * {@code ACKNOWLEDGED} phase), as the ledger loop's ends with its last {@code commitTransaction}.
 */
public final class ContainerShareLoop implements TransformLoop {
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);

    @Override
    public String name() {
        return "container";
    }

    @Override
    public LoopOutcome run(BenchmarkContext ctx, String input, String output, int records, int batch, int run) {
        String group = ctx.unique("share-container-" + run);
        ShareGroups.startFromEarliest(ctx.kafka(), group);
        Map<String, Object> cc = ShareGroups.consumer(ctx.kafka(), group, batch);
        cc.remove("group.id");   // the container's
        GaplessShareConsumerFactory<byte[], byte[]> consumers =
                new GaplessShareConsumerFactory<>(cc, new ByteArrayDeserializer(), new ByteArrayDeserializer(), false);
        AtomicLong handed = new AtomicLong();
        AtomicLong commits = new AtomicLong();
        long[] firstLast = {-1, 0};
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Map<String, Object> pc = ClientSettings.producer(ctx.kafka());
        // Called on the loop's thread, after the listener calls of that poll: every record handed so far is acknowledged.
        pc.put(TransactionPhase.LISTENER_CONFIG, (TransactionPhase.Listener) phase -> {
            if (phase == TransactionPhase.ACKNOWLEDGED) {
                commits.incrementAndGet();
                if (handed.get() >= records && done.getCount() > 0) {
                    firstLast[1] = System.nanoTime();
                    done.countDown();
                }
            }
        });
        DefaultKafkaProducerFactory<byte[], byte[]> producers = new DefaultKafkaProducerFactory<>(pc,
                new ByteArraySerializer(), new ByteArraySerializer());
        producers.setTransactionIdPrefix(group + "-tx-");
        KafkaTemplate<byte[], byte[]> template = new KafkaTemplate<>(producers);
        MessageListener<byte[], byte[]> listener = (ConsumerRecord<byte[], byte[]> r) -> {
            template.send(new ProducerRecord<>(output, r.partition(), r.key(), TransformLoop.transform(r.value())));
            if (firstLast[0] < 0) {
                firstLast[0] = System.nanoTime();
            }
            handed.incrementAndGet();
        };
        TransactionalShareListenerContainer<byte[], byte[]> container = new TransactionalShareListenerContainer<>(consumers, template,
                List.of(input), group, "bench-" + run, 1, Duration.ofMillis(100), 3);
        container.setupMessageListener(listener);
        container.start();
        try {
            if (!done.await(RUN_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("container loop handed " + handed.get() + " of " + records + " records in " + RUN_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            container.stop();
            producers.destroy();
        }
        double seconds = (firstLast[1] - firstLast[0]) / 1e9;
        long n = commits.get();
        return new LoopOutcome(seconds > 0 ? handed.get() / seconds : Double.NaN, Double.NaN, Double.NaN,
                n == 0 ? Double.NaN : handed.get() / (double) n, n, 0, Double.NaN, Double.NaN);
    }
}
