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
package io.gapless.kafka.testkit;

import org.apache.kafka.common.security.auth.SecurityProtocol;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * How the client listener of an {@link EmbeddedKafka} is secured, for
 * {@link EmbeddedKafka.Builder#security(KafkaSecurity)}. Every secured cluster runs Kafka's
 * {@code StandardAuthorizer} with {@code allow.everyone.if.no.acl.found=false}: a principal may do
 * only what an ACL grants. The test kit works as the super user {@value #SUPER_USER}; brokers and
 * controllers talk among themselves over their own SASL_PLAINTEXT listeners as another super user.
 *
 * <ul>
 *   <li>{@link #saslPlaintext()} / {@link #saslSsl()}: SCRAM-SHA-512 logins (SCRAM-SHA-256 by
 *       name); {@link EmbeddedKafka#addUser(String, String)} creates SCRAM credentials at run time.</li>
 *   <li>{@link #ssl()}: mutual TLS; a principal is the CN of its client certificate, which
 *       {@link EmbeddedKafka#addUser(String)} issues.</li>
 * </ul>
 *
 * <p>TLS certificates (a CA and a broker certificate for {@code localhost} / {@code 127.0.0.1})
 * are made at start-up with BouncyCastle, which sdk-testkit declares optional: add
 * {@code org.bouncycastle:bcpkix-jdk18on} to the test classpath to use {@link #ssl()} or
 * {@link #saslSsl()}.
 *
 * @since 0.1.0
 */
public final class KafkaSecurity {

    /** The principal name the test kit's own admin client authenticates as. */
    public static final String SUPER_USER = io.gapless.kafka.testkit.internal.ClusterSecrets.SUPER_USER;

    private static final Set<String> MECHANISMS = Set.of("SCRAM-SHA-512", "SCRAM-SHA-256");

    private final SecurityProtocol protocol;
    private final String saslMechanism;

    private KafkaSecurity(SecurityProtocol protocol, String saslMechanism) {
        this.protocol = protocol;
        this.saslMechanism = saslMechanism;
    }

    /** SASL_PLAINTEXT with SCRAM-SHA-512. */
    public static KafkaSecurity saslPlaintext() {
        return saslPlaintext("SCRAM-SHA-512");
    }

    /** SASL_PLAINTEXT with the given SCRAM mechanism ({@code SCRAM-SHA-512} or {@code SCRAM-SHA-256}). */
    public static KafkaSecurity saslPlaintext(String mechanism) {
        return new KafkaSecurity(SecurityProtocol.SASL_PLAINTEXT, checked(mechanism));
    }

    /** SSL with client certificates required (mutual TLS); a principal is its certificate's CN. */
    public static KafkaSecurity ssl() {
        return new KafkaSecurity(SecurityProtocol.SSL, null);
    }

    /** SASL_SSL with SCRAM-SHA-512: TLS for the connection (server certificate only), SCRAM for the principal. */
    public static KafkaSecurity saslSsl() {
        return saslSsl("SCRAM-SHA-512");
    }

    /** SASL_SSL with the given SCRAM mechanism. */
    public static KafkaSecurity saslSsl(String mechanism) {
        return new KafkaSecurity(SecurityProtocol.SASL_SSL, checked(mechanism));
    }

    /** The client listener's {@code security.protocol}. */
    public SecurityProtocol protocol() {
        return protocol;
    }

    /** The client listener's {@code sasl.mechanism}; empty for {@link #ssl()}. */
    public Optional<String> saslMechanism() {
        return Optional.ofNullable(saslMechanism);
    }

    @Override
    public String toString() {
        return protocol + (saslMechanism == null ? "" : "/" + saslMechanism);
    }

    private static String checked(String mechanism) {
        String upper = mechanism == null ? null : mechanism.trim().toUpperCase(Locale.ROOT);
        if (upper == null || !MECHANISMS.contains(upper)) {
            throw new IllegalArgumentException("Unsupported SASL mechanism '" + mechanism + "'; supported: "
                    + MECHANISMS.stream().sorted().toList());
        }
        return upper;
    }
}
