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
 * KIP-1327 for Kafka Streams: declare a new-partitions policy per source
 * ({@link io.gapless.kafka.streams.NewPartitionsReset}) on a
 * {@link io.gapless.kafka.streams.GaplessStreamsBuilder} or {@link io.gapless.kafka.streams.GaplessTopology},
 * or application-wide, and start the application with
 * {@link io.gapless.kafka.streams.GaplessStreams#create(GaplessStreamsBuilder, java.util.Properties)}.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.streams;
