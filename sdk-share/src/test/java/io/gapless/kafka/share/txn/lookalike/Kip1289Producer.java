package io.gapless.kafka.share.txn.lookalike;

/** The method KIP-1289 adds to Kafka's Producer, for reflection tests. */
public interface Kip1289Producer {
    void sendShareAcknowledgementsToTransaction(ShareAcknowledgements acknowledgements, ShareGroupMetadata metadata);
}
