package io.gapless.kafka.share.reset;

import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.NewPartitionsMode;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.core.spi.ResetPolicyValidator;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The share consumer's settings for KIP-1327: {@code share.auto.offset.reset} (the group's base
 * policy, as the SDK should apply it) and {@code share.auto.offset.reset.new.partitions}, both
 * configured where the consumer is configured, plus the baseline settings shared with
 * {@code GaplessConsumer}.
 */
public final class ShareResetSettings extends AbstractConfig {
    public static final String BASE_CONFIG = "share.auto.offset.reset";
    public static final String NEW_PARTITIONS_CONFIG = "share.auto.offset.reset.new.partitions";
    public static final String CHECK_INTERVAL_MS_CONFIG = "gapless.share.partition.check.interval.ms";

    /** Share groups have no {@code none}: a partition always starts somewhere. */
    private static final ResetPolicyValidator NO_NONE = ResetPolicyValidator.withoutNone(
            "share groups do not support none: use earliest, latest or by_duration:<ISO-8601 duration>");

    private static final ConfigDef CONFIG = new ConfigDef()
            .define(BASE_CONFIG, ConfigDef.Type.STRING, "latest", NO_NONE, ConfigDef.Importance.MEDIUM,
                    "The share group's base policy: earliest, latest or by_duration:<ISO-8601 duration>.")
            .define(NEW_PARTITIONS_CONFIG, ConfigDef.Type.STRING, null, NO_NONE, ConfigDef.Importance.HIGH,
                    "KIP-1327: where share partitions created after the group start. Unset: the broker's behaviour.")
            .define(GaplessConsumerConfig.BASELINE_TOPIC_CONFIG, ConfigDef.Type.STRING, GaplessConsumerConfig.BASELINE_TOPIC_DEFAULT,
                    ConfigDef.Importance.LOW, "Compacted topic holding group baselines.")
            .define(GaplessConsumerConfig.BASELINE_TIMEOUT_MS_CONFIG, ConfigDef.Type.LONG, 30_000L, ConfigDef.Range.atLeast(1),
                    ConfigDef.Importance.LOW, "Upper bound for one baseline read or write.")
            .define(GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG, ConfigDef.Type.STRING, "auto",
                    ConfigDef.CaseInsensitiveValidString.in("auto", "native", "emulate"), ConfigDef.Importance.LOW,
                    "auto, native or emulate.")
            .define(CHECK_INTERVAL_MS_CONFIG, ConfigDef.Type.LONG, 1000L, ConfigDef.Range.atLeast(10), ConfigDef.Importance.LOW,
                    "How often the share consumer looks for partitions added to its topics.");

    public ShareResetSettings(Map<?, ?> originals) {
        super(CONFIG, originals, false);
    }

    /** Whether a key is one of these settings (the Kafka share consumer must not see it). */
    public static boolean isResetKey(String key) {
        return key.equals(BASE_CONFIG) || key.equals(NEW_PARTITIONS_CONFIG);
    }

    public ResetPolicy basePolicy() {
        return ResetPolicy.parse(getString(BASE_CONFIG));
    }

    public Optional<ResetPolicy> newPartitionsPolicy() {
        String v = getString(NEW_PARTITIONS_CONFIG);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(ResetPolicy.parse(v));
    }

    public String baselineTopic() {
        return getString(GaplessConsumerConfig.BASELINE_TOPIC_CONFIG);
    }

    public long timeoutMs() {
        return getLong(GaplessConsumerConfig.BASELINE_TIMEOUT_MS_CONFIG);
    }

    public long checkIntervalMs() {
        return getLong(CHECK_INTERVAL_MS_CONFIG);
    }

    public NewPartitionsMode mode() {
        return NewPartitionsMode.valueOf(getString(GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG).toUpperCase(Locale.ROOT));
    }
}
