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
package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.share.ledger.AckLedger;
import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.LedgerSettings;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidRecordStateException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The KIP-1289 side of a {@code GaplessShareConsumer} on the {@link AckPath#LEDGER} and
 * {@link AckPath#AT_LEAST_ONCE} paths: tracks what the consumer handed out, releases what no
 * transaction took before the next poll, settles what a producer committed or aborted (an abort
 * renews the records' locks: they come back at the next poll, their delivery count unchanged),
 * counts records archived by the delivery limit while it held them, and on the ledger path drops
 * redelivered records a committed transaction already acknowledged. The consumer's only entry
 * point into this package; the producer reaches it through the {@link ShareGroupMetadata} it hands
 * out ({@link #metadata()}). Used from the consumer's thread.
 *
 * <p>Two consumer modes use it. {@code share.acknowledgement.mode=transactional} (the seed KIP):
 * every record handed out is the transaction's, records no transaction staged are released at
 * the next poll. {@code explicit} (KIP-1289 as Kafka ships it): the application acknowledges as
 * usual and {@link #acknowledgementsForTransaction()} takes those acknowledgements for a
 * transaction; the others reach Kafka at the next poll, commit or close, as without a
 * transaction. An explicit consumer starts passive (no topic-id lookups, no ledger reads) and
 * becomes active the first time it takes part in a transaction, or when it receives a redelivered
 * record and its group's ledger topic exists.
 *
 * @since 0.1.0
 */
public final class ConsumerTransactionSupport<K, V> implements ShareAckParticipant, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ConsumerTransactionSupport.class);

    private final ShareConsumer<K, V> delegate;
    private final AckPath path;
    private final ShareGroupMetadata metadata;
    private final TopicIdResolver topicIds;
    private final DeliveryLimits.Lookup deliveryLimits;
    private final StartOffsets startOffsets;
    private final LedgerDedupFilter<K, V> dedup;
    private final HeldRecords<K, V> held = new HeldRecords<>();
    private final TransactionMetrics metrics;
    private final ExplicitAcks<K, V> explicitAcks;  // null in transactional mode
    private final Map<String, Object> helperConfig;
    private final LedgerSettings ledgerSettings;
    private AckLedger ledger;
    private Admin admin;
    private boolean open = true;
    private KafkaException fatal;
    // Topic ids resolved and the ledger dedup on; from the start in transactional mode, on first use in explicit mode.
    private boolean active;
    // Topic ids looked up afresh since the last poll returned (issue 22, finding 7): topic name to id.
    private final Map<String, Uuid> verifiedIds = new HashMap<>();

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
        this(path, explicit, delegate, group, clientId, kafkaConfig, ledgerSettings, injectedIds, null);
    }

    /** For tests: also injects the group's delivery limit. */
    ConsumerTransactionSupport(AckPath path, boolean explicit, ShareConsumer<K, V> delegate, String group, String clientId,
                               Map<String, Object> kafkaConfig, LedgerSettings ledgerSettings, TopicIdResolver injectedIds,
                               DeliveryLimits.Lookup injectedLimits) {
        this(path, explicit, delegate, group, clientId, kafkaConfig, ledgerSettings, injectedIds, injectedLimits, null);
    }

    /** For tests: also injects the group's delivery limit and share-partition start offsets. */
    ConsumerTransactionSupport(AckPath path, boolean explicit, ShareConsumer<K, V> delegate, String group, String clientId,
                               Map<String, Object> kafkaConfig, LedgerSettings ledgerSettings, TopicIdResolver injectedIds,
                               DeliveryLimits.Lookup injectedLimits, StartOffsets injectedStarts) {
        if (path == AckPath.NATIVE) {
            throw new IllegalArgumentException("Kafka settles acknowledgements itself on the native path");
        }
        this.delegate = delegate;
        this.path = path;
        this.metadata = new ShareGroupMetadata(group, "gapless-" + Uuid.randomUuid(), 0, this);
        this.helperConfig = new HashMap<>(kafkaConfig);
        helperConfig.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        this.ledgerSettings = ledgerSettings;
        this.topicIds = injectedIds == null ? new AdminTopicIdResolver(this::admin) : injectedIds;
        this.deliveryLimits = injectedLimits == null ? DeliveryLimits.viaAdmin(this::admin) : injectedLimits;
        this.startOffsets = injectedStarts == null ? StartOffsets.viaAdmin(this::admin) : injectedStarts;
        this.dedup = path == AckPath.LEDGER ? new LedgerDedupFilter<>(group, this::ledger, topicIds) : null;
        this.metrics = new TransactionMetrics(clientId);
        this.explicitAcks = explicit ? new ExplicitAcks<>() : null;
        this.active = !explicit;
    }

    // Opened on the first redelivery only: first deliveries never read the ledger.
    private AckLedger ledger() {
        if (ledger == null) {
            ledger = new AckLedger(helperConfig, ledgerSettings, String.valueOf(helperConfig.get(CommonClientConfigs.CLIENT_ID_CONFIG)),
                    null, phase -> { });
        }
        return ledger;
    }

    // Created on first use: topic ids, the group's delivery limit.
    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(ConnectionConfigs.from(helperConfig, "share-admin"));
        }
        return admin;
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
                countArchived(abandoned.stream().map(ExplicitAcks.Ack::record).toList(),
                        "released: taken for a transaction that never staged them");
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
            countArchived(leftovers, "released: no transaction acknowledged them before the next poll");
        }
    }

    /**
     * The application acknowledged {@code record}. Transactional mode: Kafka gets it now and the
     * record is no longer the transaction's (refused once a transaction staged it). Explicit mode: it waits for the next poll, commit or
     * close, or for {@link #acknowledgementsForTransaction()}; records this consumer does not hold
     * go to Kafka at once, which judges them as it always does.
     *
     * @throws IllegalStateException if the record is already taken for or staged in a transaction
     */
    public void acknowledge(ConsumerRecord<K, V> record, AcknowledgeType type) {
        if (explicitAcks == null) {
            TopicIdPartition tip = RecordTopicIds.topicIdPartition(record);
            if (held.isStaged(tip, record.offset())) {
                // The transaction settles it; an acknowledgement sent now would be a second one (issue 22, finding 8).
                throw stagedInTransaction(tip, record);
            }
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
            throw stagedInTransaction(tip, record);
        }
        explicitAcks.acknowledge(record, type);
    }

    private static IllegalStateException stagedInTransaction(TopicIdPartition tip, ConsumerRecord<?, ?> record) {
        return new IllegalStateException(tip.topicPartition() + "@" + record.offset() + " is staged in an open transaction;"
                + " its acknowledgement is decided by the transaction");
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
        throwIfRefused();
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

    /**
     * On the ledger path, drops (and acknowledges as recorded) redelivered records a committed transaction holds.
     *
     * @throws KafkaException (retriable where the cause is) if a topic id cannot be looked up; the records are then released
     */
    public ConsumerRecords<K, V> dedup(ConsumerRecords<K, V> records) {
        if (dedup == null) {
            return records;
        }
        if (!active && redelivered(records) && ledgerExists()) {
            // A passive explicit consumer of a group that uses transactions (its ledger topic exists): a redelivered record may be
            // one a transaction committed, which must not be processed again.
            activate();
        }
        if (!active) {
            return records;
        }
        try {
            return dedup.apply(records, delegate);
        } catch (KafkaException e) {
            throw releaseAll(records, e);
        }
    }

    /**
     * A lookup failed after Kafka's poll returned {@code records}: none of them is held, so none
     * would ever be settled (explicit mode would refuse every later poll). They are released for
     * redelivery and the poll fails with a retriable exception where the cause is transient
     * (issue 22, finding 4).
     */
    private KafkaException releaseAll(ConsumerRecords<K, V> records, KafkaException cause) {
        for (ConsumerRecord<K, V> r : records) {
            delegate.acknowledge(r, AcknowledgeType.RELEASE);
        }
        log.warn("Share consumer of group {}: a lookup failed after poll ({}); released the {} record(s) it returned for redelivery",
                metadata.groupId(), cause.toString(), records.count());
        if (cause instanceof AuthorizationException || cause instanceof RetriableException) {
            return cause;
        }
        return new TimeoutException("A lookup failed after poll; the " + records.count()
                + " record(s) it returned were released for redelivery: poll again (" + cause.getMessage() + ")", cause);
    }

    private static boolean redelivered(ConsumerRecords<?, ?> records) {
        for (ConsumerRecord<?, ?> r : records) {
            if (r.deliveryCount().orElse((short) 1) > 1) {
                return true;
            }
        }
        return false;
    }

    private boolean ledgerExists() {
        try {
            return ledger().exists(metadata.groupId());
        } catch (KafkaException e) {
            log.warn("Cannot tell whether share group {} has an ack ledger ({}); redelivered records are handed out and checked "
                    + "at commit", metadata.groupId(), e.toString());
            return false;
        }
    }

    /**
     * Records the topic id of every record handed out, and holds it.
     *
     * @throws KafkaException (retriable where the cause is) if a topic id cannot be looked up; the records are then released
     */
    public void hold(ConsumerRecords<K, V> records) {
        // These records may come from a topic re-created since the last lookup: staging looks again.
        verifiedIds.clear();
        Map<TopicPartition, TopicIdPartition> partitions = new HashMap<>();
        try {
            // Every lookup before anything is held: a failure leaves nothing half held.
            for (TopicPartition tp : records.partitions()) {
                partitions.put(tp, new TopicIdPartition(active ? topicIds.topicId(tp.topic()) : Uuid.ZERO_UUID, tp));
            }
        } catch (KafkaException e) {
            throw releaseAll(records, e);
        }
        for (TopicPartition tp : records.partitions()) {
            TopicIdPartition tip = partitions.get(tp);
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

    /** The SDK's metrics of this consumer (group {@value TransactionMetrics#GROUP}). */
    public Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
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
        Map<TopicIdPartition, List<LedgerRange>> staged = held.stage(currentIds(acks), transactionalId);
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

    /**
     * The acknowledgements keyed by the topic ids the records came from. Ids are cached for a
     * minute, and a topic deleted and re-created meanwhile hands out records of the same name,
     * partition and offsets under a new id (TopicRecreationFactsIT): an entry written under the
     * cached id would not bind the redelivery, which the new id keys (issue 22, finding 7). So the
     * first staging after a poll looks each topic up again, after Kafka fetched the records, and
     * files what is held under the id it finds. Nothing is staged yet then (a poll refuses to run
     * while anything is), so nothing staged changes key.
     */
    private Map<TopicIdPartition, List<AcknowledgementBatch>> currentIds(Map<TopicIdPartition, List<AcknowledgementBatch>> acks) {
        Map<TopicIdPartition, List<AcknowledgementBatch>> out = new LinkedHashMap<>();
        for (Map.Entry<TopicIdPartition, List<AcknowledgementBatch>> e : acks.entrySet()) {
            TopicIdPartition tip = held.resolve(e.getKey());
            Uuid current = verifiedIds.get(tip.topic());
            if (current == null) {
                current = topicIds.refresh(tip.topic());
                verifiedIds.put(tip.topic(), current);
            }
            if (!current.equals(tip.topicId())) {
                TopicIdPartition now = new TopicIdPartition(current, tip.topicPartition());
                log.warn("Share consumer of group {}: {} was re-created (topic id {}, held under {}); its records are staged under the new id",
                        metadata.groupId(), tip.topicPartition(), current, tip.topicId());
                held.rekey(tip, now);
                held.records(now).forEach(r -> RecordTopicIds.remember(r, now.topicId()));
                tip = now;
            }
            out.merge(tip, e.getValue(), (a, b) -> {
                List<AcknowledgementBatch> both = new ArrayList<>(a);
                both.addAll(b);
                return both;
            });
        }
        return out;
    }

    @Override
    public void unstage(Map<TopicIdPartition, List<LedgerRange>> ranges) {
        held.unstage(ranges);
        if (explicitAcks != null) {
            // Explicit mode: they are taken for a transaction again, with the types the application gave.
            ranges.forEach((tip, list) -> held.records(tip).forEach(record -> {
                for (LedgerRange r : list) {
                    if (r.contains(record.offset())) {
                        explicitAcks.retake(record, AcknowledgeType.forId(r.ackType()));
                    }
                }
            }));
        }
    }

    @Override
    public boolean topicIdCurrent(TopicIdPartition partition) {
        try {
            return topicIds.refresh(partition.topic()).equals(partition.topicId());
        } catch (KafkaException e) {
            // Deleted, or unknown: either way these records cannot be settled by that id's ledger ranges.
            return false;
        }
    }

    @Override
    public Set<TopicIdPartition> settle(Map<TopicIdPartition, Map<Long, AcknowledgeType>> outcome) {
        if (!open) {
            // Closed with records staged (Kafka released them on close): the transaction's fate is decided all the same, and the
            // records come back to the group, where a committed one is acknowledged from the ledger, not processed again.
            log.info("Share consumer of group {} closed before its transaction ended; its {} staged partition(s) are settled "
                    + "through the group", metadata.groupId(), outcome.size());
            return Set.of();
        }
        // Read before anything is sent: once our releases land, the start offset moves past what they archived.
        Map<TopicPartition, Long> startsBefore = startsOfReleasedAtTheLimit(outcome);
        Map<TopicIdPartition, List<ConsumerRecord<K, V>>> renewed = new LinkedHashMap<>();
        List<ConsumerRecord<K, V>> released = new ArrayList<>();
        Set<TopicIdPartition> acknowledged = new LinkedHashSet<>();
        for (Map.Entry<TopicIdPartition, Map<Long, AcknowledgeType>> e : outcome.entrySet()) {
            for (Map.Entry<Long, AcknowledgeType> o : e.getValue().entrySet()) {
                ConsumerRecord<K, V> record = held.take(e.getKey(), o.getKey());
                if (record != null) {
                    delegate.acknowledge(record, o.getValue());
                    acknowledged.add(e.getKey());
                    if (o.getValue() == AcknowledgeType.RENEW) {
                        renewed.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(record);
                    } else if (o.getValue() == AcknowledgeType.RELEASE) {
                        released.add(record);
                    }
                }
            }
        }
        if (acknowledged.isEmpty()) {
            return Set.of();
        }
        Set<TopicIdPartition> landed = new LinkedHashSet<>();
        try {
            Map<TopicIdPartition, Optional<KafkaException>> result = delegate.commitSync();
            Map<TopicPartition, Map.Entry<TopicIdPartition, Optional<KafkaException>>> byPartition = new HashMap<>();
            result.entrySet().forEach(r -> byPartition.put(r.getKey().topicPartition(), r));
            for (TopicIdPartition tip : acknowledged) {
                Map.Entry<TopicIdPartition, Optional<KafkaException>> r = byPartition.get(tip.topicPartition());
                if (r == null) {
                    continue;
                }
                // The Kafka consumer knows each record's real topic id: a re-created topic shows here first.
                topicIds.learned(r.getKey());
                if (r.getValue().isPresent()) {
                    log.warn("Acknowledgements for {} did not land ({}); the records come back and are settled from the ledger",
                            tip, r.getValue().get().toString());
                } else if (r.getKey().topicId().equals(tip.topicId())) {
                    landed.add(tip);
                }
            }
        } catch (KafkaException e) {
            // The transaction's fate is already decided; a lost acknowledgement only means redelivery.
            log.warn("Committing acknowledgements failed ({}); the records come back and are settled from the ledger", e.toString());
        }
        // A record below the start offset was finished before (acknowledged, maybe with its output committed, or archived):
        // releasing it archives nothing, though Kafka reports success.
        countArchived(released.stream().filter(r -> r.offset() >= startsBefore.getOrDefault(new TopicPartition(r.topic(), r.partition()),
                -1L)).toList(), "released: their delivery was over");
        renewed.forEach((tip, records) -> {
            if (!landed.contains(tip)) {
                countArchived(records, "their lock expired before this consumer could keep them");
            }
        });
        return landed;
    }

    /**
     * The share-partition start offsets of partitions where {@code outcome} releases a held record
     * in its last delivery (the only releases that archive); no lookup when there is none.
     */
    private Map<TopicPartition, Long> startsOfReleasedAtTheLimit(Map<TopicIdPartition, Map<Long, AcknowledgeType>> outcome) {
        Set<TopicPartition> partitions = new LinkedHashSet<>();
        int limit = -1;
        for (Map.Entry<TopicIdPartition, Map<Long, AcknowledgeType>> e : outcome.entrySet()) {
            for (Map.Entry<Long, AcknowledgeType> o : e.getValue().entrySet()) {
                ConsumerRecord<K, V> record = o.getValue() == AcknowledgeType.RELEASE ? held.get(e.getKey(), o.getKey()) : null;
                short delivery = record == null ? 1 : record.deliveryCount().orElse((short) 1);
                if (delivery < 2) {
                    continue;
                }
                if (limit == -1) {
                    limit = deliveryLimits.limit(metadata.groupId());
                }
                if (delivery >= limit) {
                    partitions.add(e.getKey().topicPartition());
                }
            }
        }
        return partitions.isEmpty() ? Map.of() : startOffsets.of(metadata.groupId(), partitions);
    }

    /** Records in their last delivery that leave this consumer without a committed output are archived by the group: count and say so. */
    private void countArchived(List<ConsumerRecord<K, V>> records, String how) {
        if (records.isEmpty()) {
            return;
        }
        int limit = -1;
        List<String> archived = new ArrayList<>();
        for (ConsumerRecord<K, V> r : records) {
            short delivery = r.deliveryCount().orElse((short) 1);
            if (delivery < 2) {
                // Kafka's lowest limit is 2: a first delivery is never the last one, and needs no lookup.
                continue;
            }
            if (limit == -1) {
                limit = deliveryLimits.limit(metadata.groupId());
            }
            if (delivery >= limit) {
                archived.add(r.topic() + "-" + r.partition() + "@" + r.offset() + " (delivery " + delivery + ")");
            }
        }
        if (!archived.isEmpty()) {
            metrics.recordArchived(archived.size());
            log.warn("Share group {} archived {} record(s) this consumer held, with no output committed for them: they reached "
                            + "{}={} and were {}: {}", metadata.groupId(), archived.size(), DeliveryLimits.CONFIG, limit, how,
                    String.join(", ", archived.subList(0, Math.min(50, archived.size())))
                            + (archived.size() > 50 ? " (and " + (archived.size() - 50) + " more)" : ""));
        }
    }

    /** The consumer is closing: producers can no longer stage its records. */
    @Override
    public void close() {
        open = false;
        if (ledger != null) {
            Utils.closeQuietly(ledger, "ack ledger");
        }
        synchronized (this) {
            if (admin != null) {
                admin.close(Duration.ofSeconds(5));
            }
        }
        metrics.close();
    }
}
