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
import org.apache.kafka.common.errors.InvalidRecordStateException;
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
 *
 * <p>Two consumer modes use it. {@code share.acknowledgement.mode=transactional} (the seed KIP):
 * every record handed out is the transaction's, records no transaction staged are released at
 * the next poll. {@code explicit} (KIP-1289 as Kafka ships it): the application acknowledges as
 * usual and {@link #acknowledgementsForTransaction()} takes those acknowledgements for a
 * transaction; the others reach Kafka at the next poll, commit or close, as without a
 * transaction. An explicit consumer starts passive (no topic-id lookups, no ledger reads) and
 * becomes active the first time it takes part in a transaction.
 */
public final class ConsumerTransactionSupport<K, V> implements ShareAckParticipant, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ConsumerTransactionSupport.class);

    private final ShareConsumer<K, V> delegate;
    private final AckPath path;
    private final ShareGroupMetadata metadata;
    private final TopicIdResolver topicIds;
    private final AdminTopicIdResolver ownResolver;
    private final LedgerDedupFilter<K, V> dedup;
    private final HeldRecords<K, V> held = new HeldRecords<>();
    private final ExplicitAcks<K, V> explicitAcks;  // null in transactional mode
    private final Map<String, Object> helperConfig;
    private final LedgerSettings ledgerSettings;
    private AckLedger ledger;
    private boolean open = true;
    private KafkaException fatal;
    // Topic ids resolved and the ledger dedup on; from the start in transactional mode, on first use in explicit mode.
    private boolean active;

    /**
     * @param path         {@link AckPath#LEDGER} or {@link AckPath#AT_LEAST_ONCE}
     * @param kafkaConfig  the consumer's Kafka settings; helper clients take its connection settings
     * @param injectedIds  the topic-id lookup, or null for one over an admin client
     */
    public ConsumerTransactionSupport(AckPath path, ShareConsumer<K, V> delegate, String group, String clientId,
                                      Map<String, Object> kafkaConfig, LedgerSettings ledgerSettings, TopicIdResolver injectedIds) {
        this(path, false, delegate, group, clientId, kafkaConfig, ledgerSettings, injectedIds);
    }

    /**
     * @param explicit {@code share.acknowledgement.mode=explicit} (KIP-1289 as Kafka ships it)
     *                 rather than the seed KIP's {@code transactional}
     */
    public ConsumerTransactionSupport(AckPath path, boolean explicit, ShareConsumer<K, V> delegate, String group, String clientId,
                                      Map<String, Object> kafkaConfig, LedgerSettings ledgerSettings, TopicIdResolver injectedIds) {
        if (path == AckPath.NATIVE) {
            throw new IllegalArgumentException("Kafka settles acknowledgements itself on the native path");
        }
        this.delegate = delegate;
        this.path = path;
        this.metadata = new ShareGroupMetadata(group, "gapless-" + Uuid.randomUuid(), 0, this);
        this.helperConfig = new HashMap<>(kafkaConfig);
        helperConfig.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        this.ledgerSettings = ledgerSettings;
        this.ownResolver = injectedIds == null ? new AdminTopicIdResolver(ConnectionConfigs.from(helperConfig, "topic-ids")) : null;
        this.topicIds = injectedIds == null ? ownResolver : injectedIds;
        this.dedup = path == AckPath.LEDGER ? new LedgerDedupFilter<>(group, this::ledger, topicIds) : null;
        this.explicitAcks = explicit ? new ExplicitAcks<>() : null;
        this.active = !explicit;
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

    @Override
    public AckPath path() {
        return path;
    }

    @Override
    public void refuse(KafkaException fatal) {
        this.fatal = fatal;
    }

    // Once the group moved to native KIP-1289 this consumer must stop: every further record it took would be refused.
    private void throwIfRefused() {
        if (fatal != null) {
            throw fatal;
        }
    }

    /**
     * Before a poll: records staged in an open transaction block it; records no transaction took
     * are released for redelivery (KIP-1289: an abandoned batch comes back).
     */
    public void beforePoll() {
        throwIfRefused();
        if (held.anyStaged()) {
            throw new IllegalStateException("Records of the last poll are staged in an open transaction: "
                    + "commit or abort the producer transaction before polling again");
        }
        if (explicitAcks != null) {
            flush();
            // Taken for a transaction that never staged them: nothing will settle them, so they come back.
            List<ExplicitAcks.Ack<K, V>> abandoned = explicitAcks.takeAbandoned();
            for (ExplicitAcks.Ack<K, V> ack : abandoned) {
                delegate.acknowledge(ack.record(), AcknowledgeType.RELEASE);
                forgetHeld(ack.record());
            }
            if (!abandoned.isEmpty()) {
                log.debug("Released {} record(s) taken by acknowledgementsForTransaction() that no transaction staged", abandoned.size());
            }
            // Records the application neither acknowledged nor took stay with Kafka's consumer, which refuses the poll as it always does.
            return;
        }
        List<ConsumerRecord<K, V>> leftovers = held.takeUnstaged();
        for (ConsumerRecord<K, V> record : leftovers) {
            delegate.acknowledge(record, AcknowledgeType.RELEASE);
        }
        if (!leftovers.isEmpty()) {
            log.debug("Released {} record(s) of the previous poll that no transaction acknowledged", leftovers.size());
        }
    }

    /**
     * The application acknowledged {@code record}. Transactional mode: Kafka gets it now and the
     * record is no longer the transaction's. Explicit mode: it waits for the next poll, commit or
     * close, or for {@link #acknowledgementsForTransaction()}; records this consumer does not hold
     * go to Kafka at once, which judges them as it always does.
     *
     * @throws IllegalStateException if the record is already taken for or staged in a transaction
     */
    public void acknowledge(ConsumerRecord<K, V> record, AcknowledgeType type) {
        if (explicitAcks == null) {
            delegate.acknowledge(record, type);
            forget(record);
            return;
        }
        TopicIdPartition tip = heldPartition(record);
        if (!held.holds(tip, record.offset())) {
            delegate.acknowledge(record, type);
            return;
        }
        if (held.isStaged(tip, record.offset())) {
            throw new IllegalStateException(tip.topicPartition() + "@" + record.offset() + " is staged in an open transaction;"
                    + " its acknowledgement is decided by the transaction");
        }
        explicitAcks.acknowledge(record, type);
    }

    /** Explicit mode: hands the acknowledgements the application gave to Kafka (before a commit, a poll or close). */
    public void flush() {
        if (explicitAcks == null) {
            return;
        }
        for (ExplicitAcks.Ack<K, V> ack : explicitAcks.flush()) {
            delegate.acknowledge(ack.record(), ack.type());
            forgetHeld(ack.record());
        }
    }

    /**
     * Explicit mode: takes the acknowledgements the application gave since the last poll, commit or
     * take, for a producer transaction (KIP-1289's {@code acknowledgementsForTransaction()}).
     * Kafka's consumer will not send them; the transaction settles them, and if no transaction
     * stages them they are released at the next poll.
     *
     * @return the acknowledgements with their topic ids, in Kafka's shape; empty if there are none
     * @throws IllegalStateException in transactional mode (every record is the transaction's there)
     */
    public ShareAcknowledgements acknowledgementsForTransaction() {
        if (explicitAcks == null) {
            throw new IllegalStateException("acknowledgementsForTransaction() is for share.acknowledgement.mode=explicit; with "
                    + "transactional every record handed out belongs to the transaction: use ShareAcknowledgements.fromRecords");
        }
        activate();
        List<ExplicitAcks.Ack<K, V>> taken = explicitAcks.take();
        if (taken.isEmpty()) {
            return ShareAcknowledgements.empty();
        }
        ShareAcknowledgements acks = new ShareAcknowledgements();
        for (ExplicitAcks.Ack<K, V> ack : taken) {
            acks.add(heldPartition(ack.record()), ack.record().offset(), ack.type());
        }
        return new ShareAcknowledgements(acks.acknowledgements());
    }

    // The partition a record is held under (topic ids are learnt on activation in explicit mode).
    private TopicIdPartition heldPartition(ConsumerRecord<K, V> record) {
        return held.resolve(new TopicIdPartition(Uuid.ZERO_UUID, new TopicPartition(record.topic(), record.partition())));
    }

    private void forgetHeld(ConsumerRecord<K, V> record) {
        held.forget(heldPartition(record), record.offset());
    }

    // Explicit mode's first transaction: learn the topic ids of what is held, and from now on of everything handed out.
    private void activate() {
        if (active) {
            return;
        }
        for (TopicIdPartition p : held.partitions()) {
            if (Uuid.ZERO_UUID.equals(p.topicId())) {
                TopicIdPartition resolved = new TopicIdPartition(topicIds.topicId(p.topic()), p.topicPartition());
                held.rekey(p, resolved);
                held.records(resolved).forEach(r -> RecordTopicIds.remember(r, resolved.topicId()));
            }
        }
        active = true;
    }

    /** On the ledger path, drops (and acknowledges as recorded) redelivered records a committed transaction holds. */
    public ConsumerRecords<K, V> dedup(ConsumerRecords<K, V> records) {
        return dedup == null || !active ? records : dedup.apply(records, delegate);
    }

    /** Records the topic id of every record handed out, and holds it. */
    public void hold(ConsumerRecords<K, V> records) {
        for (TopicPartition tp : records.partitions()) {
            TopicIdPartition tip = new TopicIdPartition(active ? topicIds.topicId(tp.topic()) : Uuid.ZERO_UUID, tp);
            for (ConsumerRecord<K, V> record : records.records(tp)) {
                if (active) {
                    RecordTopicIds.remember(record, tip.topicId());
                }
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
        throwIfRefused();
        activate();
        if (explicitAcks != null) {
            List<String> outside = explicitAcks.pendingIn(acks);
            if (!outside.isEmpty()) {
                throw new InvalidRecordStateException("Cannot acknowledge in a transaction what was acknowledged outside it: " + outside
                        + "; take those acknowledgements with acknowledgementsForTransaction() first");
            }
        }
        Map<TopicIdPartition, List<LedgerRange>> staged = held.stage(acks, transactionalId);
        if (explicitAcks != null) {
            staged.forEach((tip, ranges) -> {
                for (LedgerRange r : ranges) {
                    for (long o = r.first(); o <= r.last(); o++) {
                        explicitAcks.staged(tip.topicPartition(), o);
                    }
                }
            });
        }
        return staged;
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
