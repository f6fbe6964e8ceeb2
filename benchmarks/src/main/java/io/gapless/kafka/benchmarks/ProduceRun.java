package io.gapless.kafka.benchmarks;

/**
 * One produce run.
 *
 * @param recordsPerSecond records divided by the time from the first {@code send} to the last acknowledgement
 * @param ackP50Micros     median time from {@code send} to its acknowledgement callback
 * @param ackP99Micros     99th percentile of the same
 * @param cpuNanosPerRecord CPU time of the sending thread per record (send calls and flush)
 */
public record ProduceRun(double recordsPerSecond, double ackP50Micros, double ackP99Micros, double cpuNanosPerRecord) {
}
