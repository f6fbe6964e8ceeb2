package io.gapless.kafka.share.txn.lookalike;

/** The methods KIP-1289 adds to Kafka's ShareConsumer, for reflection tests. */
public interface Kip1289Consumer {
    ShareAcknowledgements acknowledgementsForTransaction();

    ShareGroupMetadata shareGroupMetadata();
}
