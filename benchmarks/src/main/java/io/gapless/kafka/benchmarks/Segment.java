package io.gapless.kafka.benchmarks;

/**
 * One turn of a live client in the consume or produce benchmark.
 *
 * @param recordsPerSecond  records of the turn divided by its wall time
 * @param cpuNanosPerRecord CPU time of the calling thread during the turn, per record
 */
public record Segment(double recordsPerSecond, double cpuNanosPerRecord) {
}
