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

import io.gapless.kafka.core.spi.ModeDecision;
import io.gapless.kafka.core.spi.ModeDecision.Fallback;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one client delivers transactional share acknowledgements (KIP-1289), chosen once at its
 * construction by {@link #choose}, as Kafka's {@code ConsumerDelegateCreator} picks a consumer
 * implementation once. The consumer and the producer of a pair take the same decision from the
 * same settings.
 *
 * @since 0.1.0
 */
public enum AckPath {
    /** Kafka stages the acknowledgements in the transaction itself; the SDK only validates. */
    NATIVE,
    /** The SDK's ack ledger: exactly once, see sdk-share/RATIONALE.md. */
    LEDGER,
    /** Acknowledged after the commit: a crash in between delivers the records again. */
    AT_LEAST_ONCE;

    private static final Logger log = LoggerFactory.getLogger(AckPath.class);

    /**
     * Native where kafka-clients has KIP-1289's API and the broker finalizes the feature levels it
     * needs ({@link ModeDecision#decideShareTransactions}), otherwise {@code fallback}; logs the choice.
     *
     * @param client      names the client in the log, for example {@code Producer p-1}
     * @param ledgerTopic the ledger topic, for the log
     * @throws UnsupportedVersionException with {@link Fallback#FAIL} and no native support
     */
    public static AckPath choose(NativeShareTransactions nativeSupport, Fallback fallback, String client, String ledgerTopic) {
        ModeDecision decision = decide(nativeSupport, fallback);
        switch (decision.kind()) {
            case NATIVE -> {
                log.info("{}: transactional share acknowledgements are native (KIP-1289: {})", client, decision.reason());
                return NATIVE;
            }
            case AT_LEAST_ONCE -> {
                log.warn("{}: transactional share acknowledgements run at-least-once ({}={}): records are acknowledged after "
                        + "the commit, a crash in between delivers them again", client, ShareTransactionConfigs.FALLBACK_CONFIG,
                        Fallback.AT_LEAST_ONCE);
                return AT_LEAST_ONCE;
            }
            default -> {
                log.info("{}: transactional share acknowledgements emulated with the ack ledger {} ({} has no KIP-1289)", client,
                        ledgerTopic, decision.reason());
                return LEDGER;
            }
        }
    }

    /**
     * The decision {@link #choose} takes, without logging or choosing a path: for tools that report
     * what a client would run as ({@code gapless probe}).
     *
     * @throws UnsupportedVersionException with {@link Fallback#FAIL} and no native support
     */
    public static ModeDecision decide(NativeShareTransactions nativeSupport, Fallback fallback) {
        return ModeDecision.decideShareTransactions(fallback, nativeSupport.clientSupports(), nativeSupport::broker,
                missing -> new UnsupportedVersionException("Transactional share acknowledgements (KIP-1289) are not supported by "
                        + missing + " and " + ShareTransactionConfigs.FALLBACK_CONFIG + "=" + Fallback.FAIL));
    }
}
