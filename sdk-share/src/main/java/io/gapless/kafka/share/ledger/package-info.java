/**
 * The ack ledger, the per-group topic on which the emulation of KIP-1289 records each
 * transaction's acknowledgements. Applications use only
 * {@link io.gapless.kafka.share.ledger.LedgerInspection} and the report it returns, which show a
 * group's ledger read-only; the rest is the SDK's own machinery, public for its sibling packages.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.share.ledger;
