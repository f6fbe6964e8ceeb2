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
/**
 * Real Kafka brokers for tests: {@link io.gapless.kafka.testkit.EmbeddedKafka} (a KRaft cluster in
 * the test JVM or in child JVMs whose nodes can be stopped, killed and frozen, optionally secured),
 * the JUnit 5 extension {@link io.gapless.kafka.testkit.EmbeddedKafkaTest}, and helpers for test
 * clients ({@link io.gapless.kafka.testkit.TestClients}).
 *
 * @since 0.1.0
 */
package io.gapless.kafka.testkit;
