package io.gapless.kafka.benchmarks;

/**
 * One consume run.
 *
 * @param recordsPerSecond records after the first tenth divided by the time they took (steady state)
 * @param startupMillis    from {@code subscribe} to the first record (group join, positioning, SDK baseline)
 * @param pollP50Micros    median {@code poll()} duration in steady state
 * @param pollP99Micros    99th percentile {@code poll()} duration in steady state
 * @param resets           offsets the SDK reset (0 for plain Kafka)
 * @param cpuNanosPerRecord CPU time of the polling thread per record in steady state
 */
public record ConsumeRun(double recordsPerSecond, double startupMillis, double pollP50Micros, double pollP99Micros,
                         long resets,
                         double cpuNanosPerRecord) {
}
