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
package io.gapless.kafka.streams;

import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.internal.ResetMetrics;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@link GaplessStreams#create} checks before any stream thread exists; no broker needed. */
class GaplessStreamsCreateTest {

    private static Properties props(String protocol) throws Exception {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "create-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, protocol);
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("gapless-create-").toString());
        p.put("auto.offset.reset", "latest");
        p.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, "earliest");
        return p;
    }

    private static GaplessStreamsBuilder builder() {
        GaplessStreamsBuilder b = new GaplessStreamsBuilder();
        b.stream("orders").to("out");
        return b;
    }

    @Test
    void aTopologyNotBuiltByTheSdkIsRejected() {
        StreamsBuilder plain = new StreamsBuilder();
        plain.stream("orders", Consumed.with(NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest()))).to("out");
        ConfigException e = assertThrows(ConfigException.class, () -> GaplessStreams.create(plain.build(), props("classic")));
        assertTrue(e.getMessage().contains("GaplessStreamsBuilder"), e.getMessage());
    }

    @Test
    void noneAsGlobalNewPartitionsPolicyIsRejectedNamingTheKey() throws Exception {
        Properties p = props("classic");
        p.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, "none");
        ConfigException e = assertThrows(ConfigException.class, () -> GaplessStreams.create(builder(), p));
        assertTrue(e.getMessage().contains(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG), e.getMessage());
    }

    @Test
    void anUnparsableGlobalValueIsRejectedNamingTheValue() throws Exception {
        Properties p = props("classic");
        p.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, "by_duration:soon");
        ConfigException e = assertThrows(ConfigException.class, () -> GaplessStreams.create(builder(), p));
        assertTrue(e.getMessage().contains("by_duration:soon"), e.getMessage());
    }

    @Test
    void nativeModeIsRejectedWhereKafkaLacksKip1327() throws Exception {
        Properties p = props("classic");
        p.put(GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG, "native");
        ConfigException e = assertThrows(ConfigException.class, () -> GaplessStreams.create(builder(), p));
        assertTrue(e.getMessage().contains(GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG), e.getMessage());
    }

    @Test
    void aPrefixedSdkSettingIsRejectedNamingTheKey() throws Exception {
        Properties p = props("classic");
        p.put("main.consumer.auto.offset.reset.new.partitions", "earliest");
        ConfigException e = assertThrows(ConfigException.class, () -> GaplessStreams.create(builder(), p));
        assertTrue(e.getMessage().contains("main.consumer.auto.offset.reset.new.partitions"), e.getMessage());
    }

    @Test
    void anotherMainConsumerWrapperIsRejectedUnderTheStreamsProtocol() throws Exception {
        Properties p = props("streams");
        p.put("main.consumer.__internal.consumer.wrapper__", "com.example.Wrapper");
        ConfigException e = assertThrows(ConfigException.class, () -> GaplessStreams.create(builder(), p));
        assertTrue(e.getMessage().contains("__internal.consumer.wrapper__"), e.getMessage());
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "streams"})
    void theMainConsumerCarriesTheSdkUnderBothProtocols(String protocol) throws Exception {
        KafkaStreams streams = GaplessStreams.create(builder(), props(protocol));
        try {
            assertTrue(streams.metrics().keySet().stream().anyMatch(m -> m.group().equals(ResetMetrics.GROUP)
                            && m.name().equals("new-partitions-mode")),
                    "the SDK's metrics show up in KafkaStreams.metrics(): the main consumer is the SDK's");
        } finally {
            streams.close(Duration.ofSeconds(5));
        }
    }
}
