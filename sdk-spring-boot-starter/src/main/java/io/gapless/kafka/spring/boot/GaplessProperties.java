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
package io.gapless.kafka.spring.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * The {@code gapless.*} properties: the SDK's settings for the consumer factories Spring Boot builds
 * from {@code spring.kafka.*}, and the transactional share listener containers. Each typed property
 * is the same as the SDK key it names, settable also as {@code spring.kafka.consumer.properties.<key>};
 * a typed property, where set, wins.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "gapless")
public class GaplessProperties {

    /** Whether Boot's consumer factories create Gapless clients. {@code false} leaves Boot's own factories in place. */
    private boolean enabled = true;

    private final Consumer consumer = new Consumer();
    private final Share share = new Share();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Consumer getConsumer() {
        return consumer;
    }

    public Share getShare() {
        return share;
    }

    /**
     * Consumer-group settings (KIP-1327).
     *
     * @since 0.1.0
     */
    public static class Consumer {
        /**
         * Where a partition added after the group started begins (auto.offset.reset.new.partitions):
         * earliest, latest or by_duration:&lt;ISO-8601 duration&gt;.
         */
        private String autoOffsetResetNewPartitions;

        /** How auto.offset.reset.new.partitions is delivered (gapless.new.partitions.mode): auto, native or emulate. */
        private String newPartitionsMode;

        /** Prefix of the group-baseline topics (gapless.baseline.topic.prefix). */
        private String baselineTopicPrefix;

        public String getAutoOffsetResetNewPartitions() {
            return autoOffsetResetNewPartitions;
        }

        public void setAutoOffsetResetNewPartitions(String autoOffsetResetNewPartitions) {
            this.autoOffsetResetNewPartitions = autoOffsetResetNewPartitions;
        }

        public String getNewPartitionsMode() {
            return newPartitionsMode;
        }

        public void setNewPartitionsMode(String newPartitionsMode) {
            this.newPartitionsMode = newPartitionsMode;
        }

        public String getBaselineTopicPrefix() {
            return baselineTopicPrefix;
        }

        public void setBaselineTopicPrefix(String baselineTopicPrefix) {
            this.baselineTopicPrefix = baselineTopicPrefix;
        }
    }

    /**
     * Share-group settings (KIP-1327 for share groups, KIP-1289) and the transactional share
     * listener containers.
     *
     * @since 0.1.0
     */
    public static class Share {
        /** Where a new share group starts (share.auto.offset.reset): earliest, latest or by_duration:&lt;duration&gt;. */
        private String autoOffsetReset;

        /** Where a partition added after the share group started begins (share.auto.offset.reset.new.partitions). */
        private String autoOffsetResetNewPartitions;

        /** What the SDK does where the broker lacks KIP-1289 (gapless.share.transactional.fallback): emulate, at-least-once or fail. */
        private String transactionalFallback;

        /** Prefix of the ack-ledger topics (gapless.ledger.topic.prefix). */
        private String ledgerTopicPrefix;

        private final Listener listener = new Listener();

        public String getAutoOffsetReset() {
            return autoOffsetReset;
        }

        public void setAutoOffsetReset(String autoOffsetReset) {
            this.autoOffsetReset = autoOffsetReset;
        }

        public String getAutoOffsetResetNewPartitions() {
            return autoOffsetResetNewPartitions;
        }

        public void setAutoOffsetResetNewPartitions(String autoOffsetResetNewPartitions) {
            this.autoOffsetResetNewPartitions = autoOffsetResetNewPartitions;
        }

        public String getTransactionalFallback() {
            return transactionalFallback;
        }

        public void setTransactionalFallback(String transactionalFallback) {
            this.transactionalFallback = transactionalFallback;
        }

        public String getLedgerTopicPrefix() {
            return ledgerTopicPrefix;
        }

        public void setLedgerTopicPrefix(String ledgerTopicPrefix) {
            this.ledgerTopicPrefix = ledgerTopicPrefix;
        }

        public Listener getListener() {
            return listener;
        }
    }

    /**
     * The transactional share listener containers (one transaction per poll).
     *
     * @since 0.1.0
     */
    public static class Listener {
        /** Share consumers (threads) per container. */
        private int concurrency = 1;

        /** How long one poll waits for records. */
        private Duration pollTimeout = Duration.ofSeconds(1);

        /**
         * Deliveries of one record that end in a listener exception before it is rejected
         * (AcknowledgeType.REJECT, never delivered again): Spring's error-handler attempts.
         */
        private int maxAttempts = 3;

        public int getConcurrency() {
            return concurrency;
        }

        public void setConcurrency(int concurrency) {
            this.concurrency = concurrency;
        }

        public Duration getPollTimeout() {
            return pollTimeout;
        }

        public void setPollTimeout(Duration pollTimeout) {
            this.pollTimeout = pollTimeout;
        }

        public int getMaxAttempts() {
            return maxAttempts;
        }

        public void setMaxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
        }
    }
}
