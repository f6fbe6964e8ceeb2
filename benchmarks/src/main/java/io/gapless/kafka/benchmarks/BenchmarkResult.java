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

    /** Adds the throughput figures of the consume and produce benchmarks, in one fixed order (the first nine predate the intervals). */
    BenchmarkResult metrics(ThroughputFigures f) {
        return metric("plain_records_per_s", f.plainRate())
                .metric("sdk_records_per_s", f.sdkRate())
                .metric("ratio", Format.ratio(f.ratio().estimate()))
                .metric("paired_ratio", Format.ratio(f.paired()))
                .metric("best_ratio", Format.ratio(f.best()))
                .metric("control_aa_ratio", Format.ratio(f.control().estimate()))
                .metric("control_aa_cpu_ratio", Format.ratio(f.controlCpu().estimate()))
                .metric("plain_cpu_ns_per_record", f.plainCpu())
                .metric("sdk_cpu_ns_per_record", f.sdkCpu())
                .metric("ratio_ci_low", Format.ratio(f.ratio().low()))
                .metric("ratio_ci_high", Format.ratio(f.ratio().high()))
                .metric("control_aa_ci_low", Format.ratio(f.control().low()))
                .metric("control_aa_ci_high", Format.ratio(f.control().high()))
                .metric("cpu_ratio", Format.ratio(f.cpu().estimate()))
                .metric("cpu_ratio_ci_low", Format.ratio(f.cpu().low()))
                .metric("cpu_ratio_ci_high", Format.ratio(f.cpu().high()))
                .metric("control_aa_cpu_ci_low", Format.ratio(f.controlCpu().low()))
                .metric("control_aa_cpu_ci_high", Format.ratio(f.controlCpu().high()));
    }

    /** The rows every throughput benchmark prints: the ratio against its target, its interval, the A/A control, CPU per record. */
    BenchmarkResult throughputRows(String benchmark, String figure, ThroughputFigures f, String aaLabel, String cpuLabel) {
        return row(TableRow.resolved(benchmark, figure, Format.rate(f.plainRate()), Format.rate(f.sdkRate()),
                "ratio " + ThroughputFigures.withInterval(f.ratio()), "ratio >= 0.98", f.ratio(), 0.98))
                .row(TableRow.checked(benchmark, "width of that 95% interval (t on per-round log ratios, " + f.ratio().n() + " rounds)",
                        "", "", Format.ratio(f.ratio().width()), "< " + Format.ratio(ThroughputFigures.RESOLUTION),
                        f.ratio().width() < ThroughputFigures.RESOLUTION))
                .row(TableRow.info(benchmark, "records/s: median of per-round ratios / ratio of best segments", "", "",
                        Format.ratio(f.paired()) + " / " + Format.ratio(f.best())))
                .row(TableRow.info(benchmark, "noise floor: " + aaLabel + " (A/A), records/s / CPU per record", "", "",
                        "ratio " + ThroughputFigures.withInterval(f.control()) + " / " + ThroughputFigures.withInterval(f.controlCpu())))
                .row(TableRow.info(benchmark, cpuLabel + " (median)", Format.number(f.plainCpu()) + " ns",
                        Format.number(f.sdkCpu()) + " ns", "ratio " + ThroughputFigures.withInterval(f.cpu())));
    }
}
