package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.share.ledger.AckLedger;
import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.LedgerSettings;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The KIP-1289 side of a {@code GaplessShareConsumer} on the {@link AckPath#LEDGER} and
 * {@link AckPath#AT_LEAST_ONCE} paths: tracks what the consumer handed out, releases what no
 * transaction took before the next poll, settles what a producer committed or aborted, and on the
 * ledger path drops redelivered records a committed transaction already acknowledged. The
 * consumer's only entry point into this package; the producer reaches it through the
 * {@link ShareGroupMetadata} it hands out ({@link #metadata()}). Used from the consumer's thread.
 */
public final class ConsumerTransactionSupport<K, V> implements ShareAckParticipant, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ConsumerTransactionSupport.class);

    private final ShareConsumer<K, V> delegate;
    private final ShareGroupMetadata metadata;
    private final TopicIdResolver topicIds;
    private final AdminTopicIdResolver ownResolver;
    private final LedgerDedupFilter<K, V> dedup;
    private final HeldRecords<K, V> held = new HeldRecords<>();
    private final Map<String, Object> helperConfig;
    private final LedgerSettings ledgerSettings;
    private AckLedger ledger;
    private boolean open = true;

    /**
     * @param path         {@link AckPath#LEDGER} or {@link AckPath#AT_LEAST_ONCE}
     * @param kafkaConfig  the consumer's Kafka settings; helper clients take its connection settings
     * @param injectedIds  the topic-id lookup, or null for one over an admin client
     */
    public ConsumerTransactionSupport(AckPath path, ShareConsumer<K, V> delegate, String group, String clientId,
                                      Map<String, Object> kafkaConfig, LedgerSettings ledgerSettings, TopicIdResolver injectedIds) {
        if (path == AckPath.NATIVE) {
            throw new IllegalArgumentException("Kafka settles acknowledgements itself on the native path");
        }
        this.delegate = delegate;
        this.metadata = new ShareGroupMetadata(group, "gapless-" + Uuid.randomUuid(), 0, this);
        this.helperConfig = new HashMap<>(kafkaConfig);
        helperConfig.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        this.ledgerSettings = ledgerSettings;
        this.ownResolver = injectedIds == null ? new AdminTopicIdResolver(ConnectionConfigs.from(helperConfig, "topic-ids")) : null;
        this.topicIds = injectedIds == null ? ownResolver : injectedIds;
        this.dedup = path == AckPath.LEDGER ? new LedgerDedupFilter<>(group, this::ledger, topicIds) : null;
    }

    // Opened on the first redelivery only: first deliveries never read the ledger.
    private AckLedger ledger() {
        if (ledger == null) {
            ledger = new AckLedger(helperConfig, ledgerSettings, String.valueOf(helperConfig.get(CommonClientConfigs.CLIENT_ID_CONFIG)), null);
        }
        return ledger;
    }

    /** The metadata to hand to the producer: it leads the producer back to this consumer. */
    @Override
    public ShareGroupMetadata metadata() {
        return metadata;
    }

    @Override
    public boolean open() {
        return open;
    }

    /**
     * Before a poll: records staged in an open transaction block it; records no transaction took
     * are released for redelivery (KIP-1289: an abandoned batch comes back).
     */
    public void beforePoll() {
        if (held.anyStaged()) {
            throw new IllegalStateException("Records of the last poll are staged in an open transaction: "
                    + "commit or abort the producer transaction before polling again");
        }
        List<ConsumerRecord<K, V>> leftovers = held.takeUnstaged();
        for (ConsumerRecord<K, V> record : leftovers) {
            delegate.acknowledge(record, AcknowledgeType.RELEASE);
        }
        if (!leftovers.isEmpty()) {
            log.debug("Released {} record(s) of the previous poll that no transaction acknowledged", leftovers.size());
        }
    }

    /** On the ledger path, drops (and acknowledges as recorded) redelivered records a committed transaction holds. */
    public ConsumerRecords<K, V> dedup(ConsumerRecords<K, V> records) {
        return dedup == null ? records : dedup.apply(records, delegate);
    }

    /** Records the topic id of every record handed out, and holds it. */
    public void hold(ConsumerRecords<K, V> records) {
        for (TopicPartition tp : records.partitions()) {
            TopicIdPartition tip = new TopicIdPartition(topicIds.topicId(tp.topic()), tp);
            for (ConsumerRecord<K, V> record : records.records(tp)) {
                RecordTopicIds.remember(record, tip.topicId());
                held.hold(tip, record);
            }
        }
    }

    /** The application acknowledged a record itself: it is no longer ours to settle. */
    public void forget(ConsumerRecord<K, V> record) {
        held.forget(RecordTopicIds.topicIdPartition(record), record.offset());
    }

    @Override
    public Map<TopicIdPartition, List<LedgerRange>> stage(Map<TopicIdPartition, List<AcknowledgementBatch>> acks, String transactionalId) {
        return held.stage(acks, transactionalId);
    }

    @Override
    public void settle(Map<TopicIdPartition, Map<Long, AcknowledgeType>> outcome) {
        int settled = 0;
        for (Map.Entry<TopicIdPartition, Map<Long, AcknowledgeType>> e : outcome.entrySet()) {
            for (Map.Entry<Long, AcknowledgeType> o : e.getValue().entrySet()) {
                ConsumerRecord<K, V> record = held.take(e.getKey(), o.getKey());
                if (record != null) {
                    delegate.acknowledge(record, o.getValue());
                    settled++;
                }
            }
        }
        if (settled == 0) {
            return;
        }
        try {
            Map<TopicIdPartition, Optional<KafkaException>> result = delegate.commitSync();
            result.forEach((tip, error) -> error.ifPresent(ex -> log.warn(
                    "Acknowledgements for {} did not land ({}); the records come back and are settled from the ledger",
                    tip, ex.toString())));
        } catch (KafkaException e) {
            // The transaction's fate is already decided; a lost acknowledgement only means redelivery.
            log.warn("Committing acknowledgements failed ({}); the records come back and are settled from the ledger", e.toString());
        }
    }

    /** The consumer is closing: producers can no longer stage its records. */
    @Override
    public void close() {
        open = false;
        if (ownResolver != null) {
            Utils.closeQuietly(ownResolver, "topic-id resolver");
        }
        if (ledger != null) {
            Utils.closeQuietly(ledger, "ack ledger");
        }
    }
}
