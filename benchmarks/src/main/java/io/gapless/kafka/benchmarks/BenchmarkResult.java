package io.gapless.kafka.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One figure of one benchmark: the metrics of its {@code RESULT} line and the rows it adds to the
 * printed table.
 */
public final class BenchmarkResult {
    private final String benchmark;
    private final Map<String, String> metrics = new LinkedHashMap<>();
    private final List<TableRow> rows = new ArrayList<>();

    public BenchmarkResult(String benchmark) {
        if (benchmark.isBlank() || benchmark.contains(" ")) {
            throw new IllegalArgumentException("benchmark name must be one word, got '" + benchmark + "'");
        }
        this.benchmark = benchmark;
    }

    /** A benchmark that could not run, with a one-word reason such as {@code not-yet-built}. */
    public static BenchmarkResult skipped(String benchmark, String reason, String explanation) {
        BenchmarkResult r = new BenchmarkResult(benchmark).metric("skipped", reason);
        r.row(new TableRow(benchmark, "skipped: " + explanation, "", "", "", "", ""));
        return r;
    }

    public BenchmarkResult metric(String name, String value) {
        if (name.contains(" ") || name.contains("=") || value.contains(" ")) {
            throw new IllegalArgumentException("metric names and values are single tokens: " + name + "=" + value);
        }
        metrics.put(name, value);
        return this;
    }

    public BenchmarkResult metric(String name, double value) {
        return metric(name, Format.number(value));
    }

    public BenchmarkResult metric(String name, long value) {
        return metric(name, Long.toString(value));
    }

    public BenchmarkResult row(TableRow row) {
        rows.add(row);
        return this;
    }

    public String benchmark() {
        return benchmark;
    }

    public Map<String, String> metrics() {
        return Collections.unmodifiableMap(metrics);
    }

    public List<TableRow> rows() {
        return Collections.unmodifiableList(rows);
    }

    public boolean isSkipped() {
        return metrics.containsKey("skipped");
    }

    /** {@code RESULT <benchmark> <metric>=<value> ...}: one line, machine-readable. */
    public String resultLine() {
        StringBuilder sb = new StringBuilder("RESULT ").append(benchmark);
        metrics.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        return sb.toString();
    }

    /** Adds the throughput figures every interleaved benchmark reports, in one fixed order. */
    BenchmarkResult metrics(ThroughputFigures f) {
        return metric("plain_records_per_s", f.plainRate())
                .metric("sdk_records_per_s", f.sdkRate())
                .metric("ratio", Format.ratio(f.ratio()))
                .metric("paired_ratio", Format.ratio(f.paired()))
                .metric("best_ratio", Format.ratio(f.best()))
                .metric("control_aa_ratio", Format.ratio(f.controlRatio()))
                .metric("control_aa_cpu_ratio", Format.ratio(f.controlCpu()))
                .metric("plain_cpu_ns_per_record", f.plainCpu())
                .metric("sdk_cpu_ns_per_record", f.sdkCpu());
    }
}
