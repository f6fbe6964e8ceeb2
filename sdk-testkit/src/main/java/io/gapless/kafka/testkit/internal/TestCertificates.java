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

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

/**
 * A throw-away certificate authority made at test time with BouncyCastle: EC P-256 keys, a CA
 * and leaf certificates in PEM (the form Kafka's {@code ssl.keystore.type=PEM} takes inline), so
 * no keystore file and no file from outside the build is involved. Only loaded for TLS clusters;
 * {@link #ensureAvailable()} says clearly when BouncyCastle is missing.
 */
public final class TestCertificates {
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final Duration VALIDITY = Duration.ofDays(2);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final KeyPair caKeys;
    private final X500Name caName;
    private final String caPem;

    private TestCertificates(KeyPair caKeys, X500Name caName, String caPem) {
        this.caKeys = caKeys;
        this.caName = caName;
        this.caPem = caPem;
    }

    /** A certificate chain and its unencrypted PKCS#8 key, both PEM. {@code toString} shows neither. */
    public record Issued(String certificateChainPem, String privateKeyPem) {
        @Override
        public String toString() {
            return "Issued[certificate chain and private key hidden]";
        }
    }

    /** Throws {@link IllegalStateException} naming the artifact when BouncyCastle is not on the classpath. */
    public static void ensureAvailable() {
        try {
            Class.forName("org.bouncycastle.cert.X509v3CertificateBuilder", false, TestCertificates.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("TLS listeners of EmbeddedKafka make their certificates with BouncyCastle: add "
                    + "org.bouncycastle:bcpkix-jdk18on (test scope) to the classpath (sdk-testkit declares it optional)");
        }
    }

    /** A new self-signed CA. */
    public static TestCertificates newAuthority() {
        try {
            KeyPair keys = keyPair();
            X500Name name = new X500Name("CN=Gapless test CA " + Long.toHexString(RANDOM.nextLong()));
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, serial(), Date.from(now.minusSeconds(60)),
                    Date.from(now.plus(VALIDITY)), name, keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            return new TestCertificates(keys, name, pem("CERTIFICATE", sign(builder, keys).getEncoded()));
        } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
            throw new IllegalStateException("Cannot make a test certificate authority: " + e.getClass().getName(), e);
        }
    }

    /** The CA certificate in PEM: what a truststore holds. */
    public String authorityPem() {
        return caPem;
    }

    /**
     * Issues a certificate for {@code CN=<commonName>}; a server certificate names
     * {@code localhost} and {@code 127.0.0.1} as subject alternative names (hostname verification
     * stays on in clients).
     */
    public Issued issue(String commonName, boolean server) {
        try {
            KeyPair keys = keyPair();
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(caName, serial(), Date.from(now.minusSeconds(60)),
                    Date.from(now.plus(VALIDITY)), new X500Name("CN=" + commonName), keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(server
                            ? new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}
                            : new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth}));
            if (server) {
                addSubjectAlternativeNames(builder);
            }
            String chain = pem("CERTIFICATE", sign(builder, caKeys).getEncoded()) + caPem;
            return new Issued(chain, pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
        } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
            throw new IllegalStateException("Cannot issue a test certificate: " + e.getClass().getName(), e);
        }
    }

    private static void addSubjectAlternativeNames(X509v3CertificateBuilder builder) throws CertIOException {
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.dNSName, "localhost"),
            new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
    }

    private static X509CertificateHolder sign(X509v3CertificateBuilder builder, KeyPair signer) throws OperatorCreationException {
        ContentSigner contentSigner = new JcaContentSignerBuilder(SIGNATURE).build(signer.getPrivate());
        return builder.build(contentSigner);
    }

    private static KeyPair keyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return generator.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(64, RANDOM).add(BigInteger.ONE);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
