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
package io.gapless.kafka.share.admin;

import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.SupportedVersionRange;

import java.util.Map;

/**
 * What can be told about a broker's release from {@code Admin.describeFeatures}: the finalized
 * {@code metadata.version} of the cluster and the highest one the answering broker's software
 * supports (which names its release). Kafka exposes no release string over the wire.
 */
final class BrokerVersion {
    /** metadata.version feature levels and their names, from Kafka's {@code MetadataVersion}. */
    private static final Map<Integer, String> LEVEL_NAMES = Map.ofEntries(
            Map.entry(7, "3.3-IV3"), Map.entry(8, "3.4-IV0"), Map.entry(9, "3.5-IV0"), Map.entry(10, "3.5-IV1"),
            Map.entry(11, "3.5-IV2"), Map.entry(12, "3.6-IV0"), Map.entry(13, "3.6-IV1"), Map.entry(14, "3.6-IV2"),
            Map.entry(15, "3.7-IV0"), Map.entry(16, "3.7-IV1"), Map.entry(17, "3.7-IV2"), Map.entry(18, "3.7-IV3"),
            Map.entry(19, "3.7-IV4"), Map.entry(20, "3.8-IV0"), Map.entry(21, "3.9-IV0"), Map.entry(22, "4.0-IV0"),
            Map.entry(23, "4.0-IV1"), Map.entry(24, "4.0-IV2"), Map.entry(25, "4.0-IV3"), Map.entry(26, "4.1-IV0"),
            Map.entry(27, "4.1-IV1"), Map.entry(28, "4.2-IV0"), Map.entry(29, "4.2-IV1"), Map.entry(30, "4.3-IV0"),
            Map.entry(31, "4.4-IV0"), Map.entry(32, "4.4-IV1"), Map.entry(33, "4.4-IV2"), Map.entry(34, "4.5-IV0"));
    private static final String METADATA_VERSION = "metadata.version";
    private static final BrokerVersion UNKNOWN = new BrokerVersion(-1, -1);

    private final int finalizedLevel;
    private final int supportedMaxLevel;

    private BrokerVersion(int finalizedLevel, int supportedMaxLevel) {
        this.finalizedLevel = finalizedLevel;
        this.supportedMaxLevel = supportedMaxLevel;
    }

    static BrokerVersion from(FeatureMetadata features) {
        FinalizedVersionRange finalized = features.finalizedFeatures().get(METADATA_VERSION);
        SupportedVersionRange supported = features.supportedFeatures().get(METADATA_VERSION);
        return of(finalized == null ? -1 : finalized.maxVersionLevel(), supported == null ? -1 : supported.maxVersion());
    }

    /** From feature levels directly; -1 for a level the broker did not report. */
    static BrokerVersion of(int finalizedLevel, int supportedMaxLevel) {
        return new BrokerVersion(finalizedLevel, supportedMaxLevel);
    }

    static BrokerVersion unknown() {
        return UNKNOWN;
    }

    /** For example "Kafka 4.3 (metadata.version 4.3-IV0 finalized, software supports up to 4.3-IV0)". */
    String describe() {
        if (finalizedLevel < 0 && supportedMaxLevel < 0) {
            return "a broker of unknown version (describeFeatures did not answer)";
        }
        String release = supportedMaxLevel < 0 ? "Kafka of unknown release" : release(supportedMaxLevel);
        return release + " (metadata.version " + name(finalizedLevel) + " finalized, software supports up to "
                + name(supportedMaxLevel) + ")";
    }

    private static String release(int level) {
        String name = LEVEL_NAMES.get(level);
        if (name == null) {
            return level > 34 ? "Kafka newer than 4.5" : "Kafka of unknown release";
        }
        return "Kafka " + name.substring(0, name.indexOf('-'));
    }

    private static String name(int level) {
        if (level < 0) {
            return "unknown";
        }
        return LEVEL_NAMES.getOrDefault(level, "level " + level);
    }

    @Override
    public String toString() {
        return describe();
    }
}
