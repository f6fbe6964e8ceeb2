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
package io.gapless.kafka.share.ledger;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a large ack ledger quickly: {@code entries} committed entries of one share group in the
 * ledger's own record format, each acknowledging the next {@code perEntry} offsets of one
 * share-partition, as that many transactions of one writer would (here in a few transactions).
 */
public final class SyntheticLedger {
    private SyntheticLedger() {
    }

    public static void write(String bootstrap, String ledgerTopic, String group, String topic, int entries, int perEntry) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, group + "-synthetic");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        ShareKey key = new ShareKey(group, Uuid.randomUuid(), topic, 0);
        byte[] recordKey = group.getBytes(StandardCharsets.UTF_8);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            int perTransaction = 50_000;
            for (int start = 0; start < entries; start += perTransaction) {
                producer.beginTransaction();
                for (int i = start; i < Math.min(entries, start + perTransaction); i++) {
                    long first = (long) i * perEntry;
                    LedgerRange range = new LedgerRange(-1, group + "-txn", first, first + perEntry - 1, (byte) 1, (short) 1);
                    producer.send(new ProducerRecord<>(ledgerTopic, 0, recordKey,
                            LedgerCodec.encodeEntry(new LedgerEntry(group + "-txn", Map.of(key, List.of(range))))));
                }
                producer.commitTransaction();
            }
        }
    }
}
