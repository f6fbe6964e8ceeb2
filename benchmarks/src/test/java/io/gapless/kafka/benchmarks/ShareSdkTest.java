package io.gapless.kafka.benchmarks;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The share benchmarks find sdk-share's classes by name: a moved class must fail here, not skip a benchmark silently. */
class ShareSdkTest {

    @Test
    void theTransactionalShareApiIsFound() {
        StringBuilder missing = new StringBuilder();
        assertTrue(ShareSdk.load(missing).isPresent(), "missing: " + missing);
        assertTrue(ShareSdk.producerConstructor().isPresent());
        assertTrue(ShareSdk.ledgerTopicPrefix().isPresent());
    }

    @Test
    void theLedgerIndexIsFound() {
        StringBuilder missing = new StringBuilder();
        assertTrue(LedgerInternals.load(missing).isPresent(), "missing: " + missing);
    }
}
