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
 */
public final class ConsumerTransactionSupport<K, V> implements ShareAckParticipant, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ConsumerTransactionSupport.class);

    private final ShareConsumer<K, V> delegate;
    private final ShareGroupMetadata metadata;
    private final TopicIdResolver topicIds;
    private final DeliveryLimits.Lookup deliveryLimits;
    private final LedgerDedupFilter<K, V> dedup;
    private final HeldRecords<K, V> held = new HeldRecords<>();
    private final TransactionMetrics metrics;
    private final Map<String, Object> helperConfig;
    private final LedgerSettings ledgerSettings;
    private AckLedger ledger;
    private Admin admin;
    private boolean open = true;

    /**
     * @param path         {@link AckPath#LEDGER} or {@link AckPath#AT_LEAST_ONCE}
     * @param kafkaConfig  the consumer's Kafka settings; helper clients take its connection settings
     * @param injectedIds  the topic-id lookup, or null for one over an admin client
     */
    public ConsumerTransactionSupport(AckPath path, ShareConsumer<K, V> delegate, String group, String clientId,
                                      Map<String, Object> kafkaConfig, LedgerSettings ledgerSettings, TopicIdResolver injectedIds) {
        this(path, delegate, group, clientId, kafkaConfig, ledgerSettings, injectedIds, null);
    }

    /** For tests: also injects the group's delivery limit. */
    ConsumerTransactionSupport(AckPath path, ShareConsumer<K, V> delegate, String group, String clientId, Map<String, Object> kafkaConfig,
                               LedgerSettings ledgerSettings, TopicIdResolver injectedIds, DeliveryLimits.Lookup injectedLimits) {
        if (path == AckPath.NATIVE) {
            throw new IllegalArgumentException("Kafka settles acknowledgements itself on the native path");
        }
        this.delegate = delegate;
        this.metadata = new ShareGroupMetadata(group, "gapless-" + Uuid.randomUuid(), 0, this);
        this.helperConfig = new HashMap<>(kafkaConfig);
        helperConfig.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        this.ledgerSettings = ledgerSettings;
        this.topicIds = injectedIds == null ? new AdminTopicIdResolver(this::admin) : injectedIds;
        this.deliveryLimits = injectedLimits == null ? DeliveryLimits.viaAdmin(this::admin) : injectedLimits;
        this.dedup = path == AckPath.LEDGER ? new LedgerDedupFilter<>(group, this::ledger, topicIds) : null;
        this.metrics = new TransactionMetrics(clientId);
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
            countArchived(leftovers, "released: no transaction acknowledged them before the next poll");
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

    /** The SDK's metrics of this consumer (group {@value TransactionMetrics#GROUP}). */
    public Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
    }

    @Override
    public Map<TopicIdPartition, List<LedgerRange>> stage(Map<TopicIdPartition, List<AcknowledgementBatch>> acks, String transactionalId) {
        return held.stage(acks, transactionalId);
    }

    @Override
    public void unstage(Map<TopicIdPartition, List<LedgerRange>> ranges) {
        held.unstage(ranges);
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
        countArchived(released, "released: their delivery was over");
        renewed.forEach((tip, records) -> {
            if (!landed.contains(tip)) {
                countArchived(records, "their lock expired before this consumer could keep them");
            }
        });
        return landed;
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
