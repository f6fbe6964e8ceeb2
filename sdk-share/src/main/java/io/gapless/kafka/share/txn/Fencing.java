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

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;

/** Which producer errors mean "fenced", and the {@link ProducerFencedException} the SDK reports for them. */
final class Fencing {
    private Fencing() {
    }

    /**
     * Whether the Kafka producer can no longer run transactions: its epoch was bumped by a newer
     * instance or by the coordinator (InvalidProducerEpochException, InvalidTxnStateException after
     * a fencing abort, transaction version 2), possibly wrapped in "we are in an error state".
     */
    static boolean isFatal(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidProducerEpochException || t instanceof InvalidTxnStateException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** Kafka's fencing error for a producer whose epoch is no longer current because of {@code cause}. */
    static ProducerFencedException epochBumped(String transactionalId, KafkaException cause) {
        if (cause instanceof ProducerFencedException pfe) {
            return pfe;
        }
        ProducerFencedException e = new ProducerFencedException("Producer with transactional.id " + transactionalId
                + " was fenced (its epoch is no longer current): " + cause.getMessage());
        e.initCause(cause);
        return e;
    }

    /** The error for any call on a producer the SDK already saw fenced. */
    static ProducerFencedException alreadyFenced(String transactionalId) {
        return new ProducerFencedException("Producer with transactional.id " + transactionalId
                + " was fenced by a newer instance; close it and create a new one");
    }
}
