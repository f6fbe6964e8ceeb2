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
 * Spring Boot auto-configuration: Boot's consumer factories create the SDK's consumers
 * ({@link io.gapless.kafka.spring.boot.GaplessKafkaAutoConfiguration}, {@code gapless.*} properties in
 * {@link io.gapless.kafka.spring.boot.GaplessProperties}), container-managed transactional share
 * listeners ({@link io.gapless.kafka.spring.boot.TransactionalShareListenerContainer}) and the
 * {@code gapless} health contributor.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.spring.boot;
