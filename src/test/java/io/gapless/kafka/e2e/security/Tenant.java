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

import io.gapless.kafka.core.spi.StateTopics;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;

import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * One principal of a secured cluster with a group and a topic of its own: the ACLs docs/security.md
 * lists are granted one by one, so that a test holds exactly those.
 */
record Tenant(EmbeddedKafka kafka, String user, String password, String group, String topic) {
    /** The default prefix of per-group baseline topics. */
    static final String BASELINE_PREFIX = "__gapless_baseline.";

    /** A new SCRAM principal {@code <name>-...} with group {@code <name>-group-...} and topic {@code <name>-topic-...} (not created). */
    static Tenant create(EmbeddedKafka kafka, String name) {
        String user = TestTopics.unique(name);
        String password = "pw-" + UUID.randomUUID();
        kafka.addUser(user, password);
        return new Tenant(kafka, user, password, TestTopics.unique(name + "-group"), TestTopics.unique(name + "-topic"));
    }

    /** This principal's connection settings (SASL_SSL, its JAAS line) over a consumer's settings for its group. */
    Properties consumerProps(String protocol) {
        Properties p = TestClients.consumerProps(kafka, group, protocol);
        p.putAll(kafka.clientProperties(user));
        return p;
    }

    /** This principal's connection settings alone (an admin client, or on top of producer settings). */
    Properties connection() {
        return kafka.clientProperties(user);
    }

    /** The group's baseline topic under the default prefix. */
    String baselineTopic() {
        return StateTopics.forGroup(BASELINE_PREFIX, group);
    }

    void allow(ResourceType type, String name, AclOperation... operations) {
        kafka.allow(user, type, name, operations);
    }

    void revoke(ResourceType type, String name, AclOperation... operations) {
        kafka.revoke(user, type, name, operations);
    }

    /** What a plain KafkaConsumer of the group needs: Read on the group and on the topic. */
    void allowConsumer() {
        allow(ResourceType.GROUP, group, AclOperation.READ);
        allow(ResourceType.TOPIC, topic, AclOperation.READ);
    }

    /** The secrets that must never show: the password and the JAAS line that carries it. */
    List<String> secrets() {
        return List.of(password, kafka.clientProperties(user).getProperty("sasl.jaas.config"));
    }
}
