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
