package io.gapless.kafka.share.txn;

import io.gapless.kafka.share.AcknowledgementBatch;
import io.gapless.kafka.share.ShareGroupMetadata;
import io.gapless.kafka.share.internal.ledger.LedgerRange;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The transactional side of a GaplessShareConsumer: tracks what it handed out, releases what no
 * transaction took before the next poll, and settles what a producer committed or aborted.
 */
public final class ConsumerTransactionSupport<K, V> implements ShareAckParticipant {
    private static final Logger log = LoggerFactory.getLogger(ConsumerTransactionSupport.class);

    private final ShareConsumer<K, V> delegate;
    private final ShareGroupMetadata metadata;
    private final TopicIdResolver topicIds;
    private final HeldRecords<K, V> held = new HeldRecords<>();

    public ConsumerTransactionSupport(ShareConsumer<K, V> delegate, ShareGroupMetadata metadata, TopicIdResolver topicIds) {
        this.delegate = delegate;
        this.metadata = metadata;
        this.topicIds = topicIds;
    }

    @Override
    public ShareGroupMetadata metadata() {
        return metadata;
    }

    @Override
    public boolean transactional() {
        return true;
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

    public boolean holdsNothing() {
        return held.isEmpty();
    }
}
