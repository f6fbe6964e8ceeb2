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
