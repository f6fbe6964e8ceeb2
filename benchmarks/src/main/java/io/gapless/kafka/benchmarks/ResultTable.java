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
import java.util.List;

/** Renders the rows of all results as one Markdown table, columns padded for the terminal. */
public final class ResultTable {
    private static final String[] HEADER = {"benchmark", "figure", "plain Kafka", "Gapless SDK", "SDK vs plain", "target", "status"};

    private ResultTable() {
    }

    public static String render(List<BenchmarkResult> results) {
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER);
        for (BenchmarkResult r : results) {
            for (TableRow row : r.rows()) {
                lines.add(new String[] {row.benchmark(), row.figure(), row.plain(), row.sdk(), row.relation(), row.target(), row.status()});
            }
        }
        int[] widths = new int[HEADER.length];
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int n = 0; n < lines.size(); n++) {
            append(sb, lines.get(n), widths);
            if (n == 0) {
                String[] rule = new String[widths.length];
                for (int i = 0; i < widths.length; i++) {
                    rule[i] = "-".repeat(Math.max(3, widths[i]));
                }
                append(sb, rule, widths);
            }
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, String[] cells, int[] widths) {
        sb.append('|');
        for (int i = 0; i < cells.length; i++) {
            sb.append(' ').append(cells[i]).append(" ".repeat(widths[i] - cells[i].length())).append(" |");
        }
        sb.append(System.lineSeparator());
    }
}
