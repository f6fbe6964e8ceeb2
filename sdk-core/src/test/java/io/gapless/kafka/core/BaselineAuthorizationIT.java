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
package io.gapless.kafka.core;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A baseline topic the consumer may not use fails with an error that names it, and nothing is positioned. */
class BaselineAuthorizationIT {

    @Test
    void anUnauthorizedBaselineTopicFailsNamingTheTopic() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder()
                .brokerProperty("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")
                .brokerProperty("allow.everyone.if.no.acl.found", true)
                .start()) {
            kafka.createTopic("orders", 1);
            kafka.admin().createAcls(List.of(new AclBinding(
                    new ResourcePattern(ResourceType.TOPIC, "forbidden-baselines", PatternType.LITERAL),
                    new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.ALL, AclPermissionType.DENY)))).all().get();
            Properties p = TestClients.consumerProps(kafka, "secured-group", "classic");
            p.put("auto.offset.reset", "latest");
            p.put("auto.offset.reset.new.partitions", "earliest");
            p.put("gapless.baseline.topic", "forbidden-baselines");
            p.put("gapless.baseline.timeout.ms", 5000L);
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p)) {
                consumer.subscribe(List.of("orders"));
                BaselineUnavailableException e = assertInstanceOf(BaselineUnavailableException.class,
                        PollFailures.firstFailure(consumer, Duration.ofSeconds(30)));
                assertTrue(e.getMessage().contains("forbidden-baselines"), e.getMessage());
                assertTrue(e.getMessage().toLowerCase().contains("authoriz"), e.getMessage());
            }
            assertTrue(kafka.admin().listConsumerGroupOffsets("secured-group").partitionsToOffsetAndMetadata().get().isEmpty(),
                    "nothing committed");
        }
    }
}
