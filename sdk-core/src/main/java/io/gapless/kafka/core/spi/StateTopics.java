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
package io.gapless.kafka.core.spi;

import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Names of the SDK's per-group state topics (group baselines, ack ledgers): {@code <prefix><group>},
 * with the group id written so that every group gets a legal topic name of its own. One topic per
 * group is what lets an operator scope the SDK's state with Kafka's own ACLs: a principal allowed
 * to write only its group's topics cannot forge another group's state.
 *
 * <p>The encoding is injective: ASCII letters, digits, {@code .} and {@code -} are kept, {@code _}
 * becomes {@code __}, and every other character becomes {@code _} followed by the two upper-case
 * hex digits of each of its UTF-8 bytes. A name longer than Kafka's limit of 249 characters keeps
 * its beginning and ends with {@code -} and 16 hex digits of the group id's SHA-256.
 *
 * @since 0.1.0
 */
public final class StateTopics {
    private static final int MAX_NAME = 249;
    private static final int HASH_HEX = 16;

    private StateTopics() {
    }

    /**
     * The state topic of {@code groupId} under {@code prefix} (for example
     * {@code __gapless_baseline.} and {@code orders-service} give {@code __gapless_baseline.orders-service}).
     *
     * @throws IllegalArgumentException when the prefix is empty, not a legal topic name itself, or
     *                                  leaves no room for a group
     */
    public static String forGroup(String prefix, String groupId) {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(groupId, "groupId");
        if (prefix.length() > MAX_NAME - 1 - HASH_HEX - 1) {
            throw new IllegalArgumentException("topic-name prefix '" + prefix + "' is too long (" + prefix.length() + " characters)");
        }
        try {
            Topic.validate(prefix);
        } catch (InvalidTopicException e) {
            throw new IllegalArgumentException("'" + prefix + "' is not a legal topic-name prefix: " + e.getMessage(), e);
        }
        String name = prefix + encode(groupId);
        if (name.length() <= MAX_NAME) {
            return name;
        }
        return name.substring(0, MAX_NAME - 1 - HASH_HEX) + "-" + sha256Hex(groupId).substring(0, HASH_HEX);
    }

    static String encode(String groupId) {
        StringBuilder out = new StringBuilder(groupId.length());
        for (byte b : groupId.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-') {
                out.append(c);
            } else if (c == '_') {
                out.append("__");
            } else {
                out.append('_').append(HexFormat.of().withUpperCase().toHexDigits(b));
            }
        }
        return out.toString();
    }

    private static String sha256Hex(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
