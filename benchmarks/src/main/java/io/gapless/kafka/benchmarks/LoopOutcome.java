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
package io.gapless.kafka.benchmarks;

/**
 * One run of a consume-transform-produce loop.
 *
 * @param recordsPerSecond input records divided by the time from the first non-empty poll to the last commit
 * @param commitP50Micros  median commit latency (what the variant does to make a batch durable, see its class)
 * @param commitP99Micros  99th percentile of the same
 * @param averageBatch     input records per commit
 * @param commits          commits in the run
 * @param redelivered      records polled with {@code deliveryCount() > 1} (0 on the happy path)
 * @param pollP50Micros    median duration of the non-empty polls
 * @param sendP50Micros    median time to send (and, for share loops, acknowledge) one batch's outputs
 */
public record LoopOutcome(double recordsPerSecond, double commitP50Micros, double commitP99Micros, double averageBatch,
                          long commits, long redelivered,
                          double pollP50Micros, double sendP50Micros) {
}
