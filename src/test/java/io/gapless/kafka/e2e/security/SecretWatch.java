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
package io.gapless.kafka.e2e.security;

import io.gapless.kafka.testkit.EmbeddedKafka;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The secrets of one secured suite and the log capture that must never show them: started in a
 * suite's {@code @BeforeAll}, checked and closed in its {@code @AfterAll}. Every principal a test
 * creates adds its secrets here, so the final check covers the whole run.
 */
final class SecretWatch {
    private final Set<String> secrets = ConcurrentHashMap.newKeySet();
    private final LogCapture logs = new LogCapture();

    private SecretWatch() {
    }

    /** Captures from now on; the cluster's own client secrets (JAAS line, passwords, keys) are watched. */
    static SecretWatch start(EmbeddedKafka kafka) {
        SecretWatch watch = new SecretWatch();
        watch.add(kafka.clientProperties().getProperty("sasl.jaas.config"));
        kafka.clientProperties().forEach((k, v) -> {
            if (String.valueOf(k).endsWith("password") || String.valueOf(k).endsWith(".key")) {
                watch.add(String.valueOf(v));
            }
        });
        return watch;
    }

    void add(String secret) {
        if (secret != null && !secret.isEmpty()) {
            secrets.add(secret);
        }
    }

    void addAll(Collection<String> more) {
        more.forEach(this::add);
    }

    /** A principal of its own for {@code name}, its secrets watched. */
    Tenant tenant(EmbeddedKafka kafka, String name) {
        Tenant t = Tenant.create(kafka, name);
        addAll(t.secrets());
        return t;
    }

    LogCapture logs() {
        return logs;
    }

    /** Fails naming (redacted) {@code text} when it holds a watched secret or a JAAS password. */
    void assertNoSecretIn(String text) {
        for (String secret : secrets) {
            if (text.contains(secret)) {
                fail("a secret shows in: " + LogCapture.redact(text, secrets));
            }
        }
        assertTrue(!text.contains("password=\""), "no JAAS password: " + LogCapture.redact(text, secrets));
    }

    /**
     * No watched secret in any captured line; {@code expected} proves the capture saw the clients'
     * logged configs (a capture that saw nothing would pass vacuously).
     */
    void verifyAndClose(String... expected) {
        try {
            for (String e : expected) {
                assertTrue(logs.contains(e), "the capture holds the clients' logged configs (" + e + ")");
            }
            logs.assertNoSecrets(secrets);
        } finally {
            logs.close();
        }
    }
}
