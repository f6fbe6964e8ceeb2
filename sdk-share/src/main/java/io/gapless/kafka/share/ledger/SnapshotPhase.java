package io.gapless.kafka.share.ledger;

/**
 * Named points of a ledger snapshot, observable for fault-injection tests (see the producer's TransactionPhase).
 *
 * @since 0.1.0
 */
public enum SnapshotPhase {
    /** The snapshot record is written; nothing below it is deleted yet. */
    WRITTEN,
    /** The deleteRecords request below the snapshot's coverage is issued; its answer has not arrived. */
    DELETE_ISSUED
}
