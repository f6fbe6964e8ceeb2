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
package io.gapless.kafka.e2e.docs;

import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.internal.ResetMetrics;
import io.gapless.kafka.core.spi.MetricDefinition;
import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.ledger.AckLedger;
import io.gapless.kafka.share.reset.ShareResetMetrics;
import io.gapless.kafka.share.txn.TransactionMetrics;
import io.gapless.kafka.share.txn.TransactionalShareProducerConfig;
import org.apache.kafka.common.config.ConfigDef;

import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Renders docs/configuration.md from the SDK's {@code ConfigDef}s and docs/metrics.md from its
 * {@link MetricDefinition}s: the code is the only source, {@link ReferenceDocsTest} fails on any
 * difference from the committed files.
 */
final class ReferenceDocs {
    static final String REGENERATE = "mvn -B -o -q -pl src/test -am test -Dtest=ReferenceDocsTest -Dsurefire.failIfNoSpecifiedTests=false"
            + " -Dgapless.docs.write=true";

    private ReferenceDocs() {
    }

    static String configuration() {
        StringBuilder out = new StringBuilder();
        out.append("# Configuration reference\n\n")
                .append(generated("each client's `ConfigDef`"))
                .append("Every setting goes into the same `Properties`/`Map` as the Kafka client's own settings; the SDK removes (or rewrites)\n")
                .append("its keys before the configuration reaches the Kafka client. A bad value fails at construction with a\n")
                .append("`ConfigException` naming the key and the value. The `gapless` CLI reads the same keys from `--command-config`.\n");
        section(out, "GaplessConsumer", "`GaplessConsumerConfig.configDef()`. `auto.offset.reset`, `default.api.timeout.ms` and "
                + "`isolation.level` are Kafka's own settings, listed because the SDK reads them too.",
                GaplessConsumerConfig.configDef(), k -> true);
        section(out, "Kafka Streams (`GaplessStreams.create`)", "The SDK's keys of `GaplessConsumerConfig`, set once for the whole "
                + "application (a `main.consumer.`/`consumer.` prefix is refused); the group is `application.id` and the base policy "
                + "Kafka Streams' own `auto.offset.reset`.", GaplessConsumerConfig.configDef(), GaplessConsumerConfig::isSdkKey);
        section(out, "GaplessShareConsumer", "`GaplessShareConfig.configDef()`. Set the `gapless.share.transactional.fallback` and "
                + "`gapless.ledger.*` values the same on the consumer and its producer.", GaplessShareConfig.configDef(), k -> true);
        section(out, "TransactionalShareProducer and TransactionalShareAcknowledger", "`TransactionalShareProducerConfig.configDef()`.",
                TransactionalShareProducerConfig.configDef(), k -> true);
        return out.toString();
    }

    static String metrics() {
        StringBuilder out = new StringBuilder();
        out.append("# Metrics reference\n\n")
                .append(generated("the MetricDefinitions the SDK's metrics classes register"))
                .append("Every metric is in the decorated client's `metrics()` (so Micrometer's `KafkaClientMetrics` and Spring Boot bind it)\n")
                .append("and in JMX under the domain shown, as `<domain>:type=<group>,<tag>=<value>,...`. `client-id` is the wrapped Kafka\n")
                .append("client's own. Micrometer names them `kafka.<group without -metrics>.<name>`, dashes as dots.\n");
        metricSection(out, "GaplessConsumer and the Kafka Streams main consumer", "Registered when `auto.offset.reset.new.partitions` "
                + "(or a source's new-partitions policy) is set. `policy` is `earliest`, `latest` or `by_duration`; `classification` is "
                + "`new`, `pre-existing` or `out-of-range`.", ResetMetrics.DEFINITIONS);
        metricSection(out, "GaplessShareConsumer: new partitions", "Registered when `share.auto.offset.reset.new.partitions` is set.",
                ShareResetMetrics.DEFINITIONS);
        metricSection(out, "GaplessShareConsumer: transactional acknowledgements", "Registered with "
                + "`share.acknowledgement.mode=transactional` (emulated or at-least-once).", TransactionMetrics.DEFINITIONS);
        metricSection(out, "TransactionalShareProducer", "One per ack-ledger partition the producer has committed to, on the emulated "
                + "(ledger) path.", AckLedger.METRIC_DEFINITIONS);
        return out.toString();
    }

    private static String generated(String from) {
        return "<!-- Generated from " + from.replace("`", "") + " by ReferenceDocsTest; do not edit. Regenerate with:\n     "
                + REGENERATE + " -->\n\n";
    }

    private static void section(StringBuilder out, String title, String intro, ConfigDef def, Predicate<String> keys) {
        out.append("\n## ").append(title).append("\n\n").append(intro).append("\n\n")
                .append("| key | description | type | default | valid values | importance |\n")
                .append("|---|---|---|---|---|---|\n");
        def.configKeys().values().stream().filter(k -> keys.test(k.name))
                .sorted(Comparator.comparing((ConfigDef.ConfigKey k) -> k.importance).thenComparing(k -> k.name))
                .forEach(k -> out.append("| `").append(k.name).append("` | ").append(cell(k.documentation)).append(" | ")
                        .append(k.type.toString().toLowerCase(java.util.Locale.ROOT)).append(" | ")
                        .append(!k.hasDefault() ? "(required)" : k.defaultValue == null ? "(unset)" : code(ConfigDef.convertToString(k.defaultValue, k.type)))
                        .append(" | ")
                        .append(k.validator == null ? "" : cell(k.validator.toString())).append(" | ")
                        .append(k.importance.toString().toLowerCase(java.util.Locale.ROOT)).append(" |\n"));
    }

    private static void metricSection(StringBuilder out, String title, String intro, List<MetricDefinition> definitions) {
        out.append("\n## ").append(title).append("\n\n").append(intro).append("\n\n")
                .append("| group | JMX domain | metric | type | tags | description |\n")
                .append("|---|---|---|---|---|---|\n");
        definitions.forEach(d -> out.append("| `").append(d.group()).append("` | `").append(d.jmxDomain()).append("` | `").append(d.name())
                .append("` | ").append(d.type().label()).append(" | ")
                .append(d.tags().stream().map(t -> "`" + t + "`").collect(Collectors.joining(", "))).append(" | ")
                .append(cell(d.description())).append(" |\n"));
    }

    private static String code(String value) {
        return value == null || value.isEmpty() ? "\"\"" : "`" + value + "`";
    }

    /** A table cell: Kafka's HTML doc markup as Markdown, everything else literal. */
    private static String cell(String text) {
        return text.replace("<code>", "`").replace("</code>", "`").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|").replace("\n", " ");
    }
}
