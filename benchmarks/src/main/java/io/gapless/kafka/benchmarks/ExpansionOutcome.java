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
 * One expansion run.
 *
 * @param constructMillis        constructing the consumer (the SDK probes the broker's capabilities here)
 * @param firstPollMillis        from {@code subscribe} to the initial partitions assigned and positioned
 * @param producedNew            records acknowledged on the partitions added by {@code createPartitions}
 * @param lostNew                of those, records the consumer never delivered
 * @param lostOld                records written to the original partitions after positioning and never delivered
 * @param duplicates             records delivered more than once
 * @param historyReplayed        records written before the group started and delivered anyway
 * @param newAssignedMillis      from {@code createPartitions} to the consumer holding every partition (NaN: never)
 * @param firstNewRecordMillis   from {@code createPartitions} to the first record of a new partition delivered (NaN: none)
 * @param slowestNewPartitionMillis from {@code createPartitions} until every new partition delivered its first record (NaN: one never did)
 */
public record ExpansionOutcome(double constructMillis, double firstPollMillis, long producedNew, long lostNew, long lostOld, long duplicates,
                               long historyReplayed, double newAssignedMillis, double firstNewRecordMillis,
                               double slowestNewPartitionMillis) {
}
