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
