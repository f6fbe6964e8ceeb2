package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.share.ledger.AckLedger;
import io.gapless.kafka.share.ledger.LedgerSettings;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.utils.Utils;

import java.util.HashMap;
import java.util.Map;

/**
 * For a native consumer of a group that used the ack-ledger emulation before it moved: a record
 * an emulated member committed whose acknowledgement never reached Kafka comes back, and a native
 * member must not process it again. Redelivered records ({@code deliveryCount() > 1}) are looked
 * up in the ledger's commits and acknowledged as recorded; if the lookup fails they are released.
 * First deliveries pass untouched. Used from the consumer's thread.
 */
public final class LedgerHistoryFilter<K, V> implements AutoCloseable {
    private final Map<String, Object> helperConfig;
    private final LedgerSettings settings;
    private final AdminTopicIdResolver ownResolver;
    private final LedgerDedupFilter<K, V> dedup;
    private AckLedger ledger;

    /** @param injectedIds the topic-id lookup, or null for one over an admin client */
    public LedgerHistoryFilter(String group, String clientId, Map<String, Object> kafkaConfig, LedgerSettings settings,
                               TopicIdResolver injectedIds) {
        this.helperConfig = new HashMap<>(kafkaConfig);
        helperConfig.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        this.settings = settings;
        this.ownResolver = injectedIds == null ? new AdminTopicIdResolver(ConnectionConfigs.from(helperConfig, "topic-ids")) : null;
        this.dedup = new LedgerDedupFilter<>(group, this::ledger, injectedIds == null ? ownResolver : injectedIds, true);
    }

    private AckLedger ledger() {
        if (ledger == null) {
            ledger = new AckLedger(helperConfig, settings, String.valueOf(helperConfig.get(CommonClientConfigs.CLIENT_ID_CONFIG)), null);
        }
        return ledger;
    }

    /** {@code records} without the redeliveries a ledger commit already holds (those are acknowledged as recorded). */
    public ConsumerRecords<K, V> apply(ConsumerRecords<K, V> records, ShareConsumer<K, V> delegate) {
        return dedup.apply(records, delegate);
    }

    @Override
    public void close() {
        if (ownResolver != null) {
            Utils.closeQuietly(ownResolver, "topic-id resolver");
        }
        if (ledger != null) {
            Utils.closeQuietly(ledger, "ack ledger");
        }
    }
}
