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
package io.gapless.kafka.testkit.internal;

import org.apache.kafka.common.security.auth.SecurityProtocol;

import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The secrets and listener settings of a secured embedded cluster: the client listener's protocol
 * and SASL mechanism, the brokers' own PLAIN login on the internal and controller listeners, the
 * test CA with the broker certificate, and each principal's password or client certificate.
 * Nothing here is ever logged; {@link #toString()} names only the protocol.
 */
public final class ClusterSecrets {
    public static final String CLIENT_LISTENER = "CLIENT";
    public static final String INTERNAL_LISTENER = "INTERNAL";
    /** The principal the test kit itself works as (topics, users, ACLs). */
    public static final String SUPER_USER = "admin";
    /** The principal brokers and controllers use among themselves. */
    public static final String BROKER_USER = "broker";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".toCharArray();

    private record Credentials(String password, TestCertificates.Issued certificate) {
        @Override
        public String toString() {
            return "Credentials[hidden]";
        }
    }

    private final SecurityProtocol protocol;
    private final String mechanism;
    private final String brokerPassword = newPassword();
    private final TestCertificates authority;
    private final TestCertificates.Issued serverCertificate;
    private final Map<String, Credentials> users = new ConcurrentHashMap<>();

    private ClusterSecrets(SecurityProtocol protocol, String mechanism) {
        this.protocol = protocol;
        this.mechanism = mechanism;
        if (usesTls()) {
            TestCertificates.ensureAvailable();
            this.authority = TestCertificates.newAuthority();
            this.serverCertificate = authority.issue("localhost", true);
        } else {
            this.authority = null;
            this.serverCertificate = null;
        }
        register(SUPER_USER, newPassword());
    }

    /** @param mechanism the SASL mechanism of the client listener; null for {@code SSL} */
    public static ClusterSecrets create(SecurityProtocol protocol, String mechanism) {
        return new ClusterSecrets(protocol, mechanism);
    }

    /** A random 24-character password. */
    public static String newPassword() {
        char[] chars = new char[24];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        }
        return new String(chars);
    }

    public SecurityProtocol protocol() {
        return protocol;
    }

    public boolean usesSasl() {
        return protocol == SecurityProtocol.SASL_PLAINTEXT || protocol == SecurityProtocol.SASL_SSL;
    }

    public boolean usesTls() {
        return protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL;
    }

    /** Records a principal: a password for SASL, a client certificate (CN=user) for SSL. */
    public void register(String user, String password) {
        users.put(user, new Credentials(usesSasl() ? password : null,
                protocol == SecurityProtocol.SSL ? authority.issue(user, false) : null));
    }

    public boolean knows(String user) {
        return users.containsKey(user);
    }

    public String password(String user) {
        return users.get(user).password();
    }

    /** {@code kafka-storage format --add-scram} arguments that create the super user before the first start. */
    public List<String> scramBootstrap() {
        if (!usesSasl()) {
            return List.of();
        }
        return List.of(mechanism + "=[name=" + SUPER_USER + ",password=" + password(SUPER_USER) + "]");
    }

    /** Settings of every node: listener protocols, SASL and TLS material, the authorizer. */
    public Map<String, String> nodeProperties(boolean broker) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("listener.security.protocol.map", CLIENT_LISTENER + ":" + protocol.name + "," + INTERNAL_LISTENER
                + ":SASL_PLAINTEXT," + ClusterLayout.CONTROLLER_LISTENER + ":SASL_PLAINTEXT");
        String brokerLogin = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + BROKER_USER
                + "\" password=\"" + brokerPassword + "\" user_" + BROKER_USER + "=\"" + brokerPassword + "\";";
        for (String listener : List.of(INTERNAL_LISTENER, ClusterLayout.CONTROLLER_LISTENER)) {
            String prefix = "listener.name." + listener.toLowerCase(java.util.Locale.ROOT) + ".";
            p.put(prefix + "sasl.enabled.mechanisms", "PLAIN");
            p.put(prefix + "plain.sasl.jaas.config", brokerLogin);
        }
        p.put("sasl.mechanism.controller.protocol", "PLAIN");
        p.put("sasl.enabled.mechanisms", "PLAIN");
        if (broker) {
            p.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
            String client = "listener.name." + CLIENT_LISTENER.toLowerCase(java.util.Locale.ROOT) + ".";
            if (usesSasl()) {
                p.put(client + "sasl.enabled.mechanisms", mechanism);
                p.put(client + mechanism.toLowerCase(java.util.Locale.ROOT) + ".sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required;");
            }
            if (usesTls()) {
                p.put(client + "ssl.keystore.type", "PEM");
                p.put(client + "ssl.keystore.certificate.chain", serverCertificate.certificateChainPem());
                p.put(client + "ssl.keystore.key", serverCertificate.privateKeyPem());
                p.put(client + "ssl.truststore.type", "PEM");
                p.put(client + "ssl.truststore.certificates", authority.authorityPem());
                p.put(client + "ssl.client.auth", protocol == SecurityProtocol.SSL ? "required" : "none");
                // The principal of a client certificate is its CN: User:alice, not User:CN=alice.
                p.put(client + "ssl.principal.mapping.rules", "RULE:^CN=([^,]+)$/$1/,DEFAULT");
            }
        }
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("super.users", "User:" + SUPER_USER + ";User:" + BROKER_USER);
        p.put("allow.everyone.if.no.acl.found", "false");
        return p;
    }

    /** The client settings that authenticate as {@code user} on the client listener. */
    public Map<String, String> clientProperties(String user) {
        Credentials credentials = users.get(user);
        if (credentials == null) {
            throw new IllegalArgumentException("No principal '" + user + "' in this cluster: addUser(\"" + user + "\") first");
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("security.protocol", protocol.name);
        if (usesSasl()) {
            p.put("sasl.mechanism", mechanism);
            p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                    + user + "\" password=\"" + credentials.password() + "\";");
        }
        if (usesTls()) {
            p.put("ssl.truststore.type", "PEM");
            p.put("ssl.truststore.certificates", authority.authorityPem());
        }
        if (credentials.certificate() != null) {
            p.put("ssl.keystore.type", "PEM");
            p.put("ssl.keystore.certificate.chain", credentials.certificate().certificateChainPem());
            p.put("ssl.keystore.key", credentials.certificate().privateKeyPem());
        }
        return p;
    }

    @Override
    public String toString() {
        return "ClusterSecrets[" + protocol + (mechanism == null ? "" : ", " + mechanism) + "]";
    }
}
