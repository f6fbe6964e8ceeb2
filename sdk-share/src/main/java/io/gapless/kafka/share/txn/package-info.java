/**
 * KIP-1289, transactional share acknowledgements:
 * {@link io.gapless.kafka.share.txn.TransactionalShareProducer} (a producer whose transaction also
 * commits a share consumer's acknowledgements), {@link io.gapless.kafka.share.txn.TransactionalShareAcknowledger}
 * (the same without output), the KIP's types ({@link io.gapless.kafka.share.txn.ShareAcknowledgements},
 * {@link io.gapless.kafka.share.txn.ShareGroupMetadata}) and the move of a group to Kafka's native
 * KIP-1289 ({@link io.gapless.kafka.share.txn.TransactionalShareGroups}).
 *
 * @since 0.1.0
 */
package io.gapless.kafka.share.txn;
