package io.gapless.kafka.examples.spring;

/**
 * The business step of {@link PaymentEnricher}: turns a payment into its enriched form. It may
 * throw any exception (a validation failure, a downstream service down); the enricher then aborts
 * the record's transaction, so the record is released and delivered again.
 */
@FunctionalInterface
public interface Enrichment {
    /** The demo's enrichment. */
    Enrichment STANDARD = payment -> payment + " enriched";

    String enrich(String payment);
}
