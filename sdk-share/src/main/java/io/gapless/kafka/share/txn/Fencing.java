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
