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
package io.gapless.kafka.examples;

import java.io.PrintStream;

/** What one run of {@link ExpansionScenario} observed: per partition produced, seen and lost. */
public final class ExpansionResult {
    private final String label;
    private final int initialPartitions;
    private final int[] produced;
    private final int[] seen;
    private int historyReplayed;
    private int duplicates;

    ExpansionResult(String label, int initialPartitions, int finalPartitions) {
        this.label = label;
        this.initialPartitions = initialPartitions;
        this.produced = new int[finalPartitions];
        this.seen = new int[finalPartitions];
    }

    void produced(int partition) {
        produced[partition]++;
    }

    void seen(int partition) {
        seen[partition]++;
    }

    void historyReplayed() {
        historyReplayed++;
    }

    void duplicate() {
        duplicates++;
    }

    public String label() {
        return label;
    }

    /** Records written after the group started that it never consumed, on every partition. */
    public int lost() {
        int lost = 0;
        for (int p = 0; p < produced.length; p++) {
            lost += produced[p] - seen[p];
        }
        return lost;
    }

    /** Records lost on partitions added after the group started. */
    public int lostOnNewPartitions() {
        int lost = 0;
        for (int p = initialPartitions; p < produced.length; p++) {
            lost += produced[p] - seen[p];
        }
        return lost;
    }

    /** Records produced to partitions added after the group started. */
    public int producedOnNewPartitions() {
        int n = 0;
        for (int p = initialPartitions; p < produced.length; p++) {
            n += produced[p];
        }
        return n;
    }

    /** Records written before the group started that it consumed anyway. */
    public int historyReplayedCount() {
        return historyReplayed;
    }

    public int duplicates() {
        return duplicates;
    }

    /** Prints one table row block: a line per partition, then the totals. */
    public void print(PrintStream out) {
        out.printf("%-52s %9s %6s %6s%n", label, "produced", "seen", "lost");
        for (int p = 0; p < produced.length; p++) {
            out.printf("  partition %d (%s)%s %9d %6d %6d%n", p, p < initialPartitions ? "existing" : "added   ",
                    " ".repeat(28), produced[p], seen[p], produced[p] - seen[p]);
        }
        out.printf("  total: lost %d of %d on added partitions, %d lost in all, %d history replayed, %d duplicates%n%n",
                lostOnNewPartitions(), producedOnNewPartitions(), lost(), historyReplayed, duplicates);
    }
}
