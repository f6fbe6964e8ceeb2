package io.gapless.kafka.share.ledger;

/**
 * The ack-ledger settings of one client, as its config class parsed them.
 *
 * @param topic                    the ledger topic, created on first use
 * @param partitions               partitions when the SDK creates it
 * @param replicationFactor        replication factor when the SDK creates it; -1 for the broker's default
 * @param maxBytesBetweenSnapshots ledger entry bytes read before a snapshot (KIP-1349's rule)
 */
public record LedgerSettings(String topic, int partitions, short replicationFactor, long maxBytesBetweenSnapshots) {
}
