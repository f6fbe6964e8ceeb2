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
package io.gapless.kafka.examples.spring;

import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the Spring demo measured: per orders partition, what was written (values
 * {@code <phase>-<partition>-<n>}) and what each listener received; and the enriched payments.
 */
public record SpringDemoResult(Map<Integer, Set<String>> written, Set<String> plainSeen, int plainDuplicates,
                               Set<String> gaplessSeen, int gaplessDuplicates, int payments, List<String> enriched,
                               boolean paymentsAcknowledged) {

    /** Records written after the groups started on {@code partition} that {@code seen} lacks (markers included). */
    public int lost(Set<String> seen, int partition) {
        return (int) afterStart(partition).stream().filter(v -> !v.startsWith("marker") && !seen.contains(v)).count();
    }

    /** Records written before the groups started that {@code seen} holds. */
    public int historyReplayed(Set<String> seen) {
        return (int) seen.stream().filter(v -> v.startsWith("history")).count();
    }

    /** Records written while the containers were stopped to partitions added then (4 and 5) that {@code seen} lacks. */
    public int lostOnPartitionsAddedWhileStopped(Set<String> seen) {
        return lost(seen, 4) + lost(seen, 5);
    }

    public int enrichedDuplicates() {
        return enriched.size() - new HashSet<>(enriched).size();
    }

    private Set<String> afterStart(int partition) {
        Set<String> out = new HashSet<>();
        written.getOrDefault(partition, Set.of()).stream().filter(v -> !v.startsWith("history")).forEach(out::add);
        return out;
    }

    public void print(PrintStream out) {
        out.println();
        out.println("orders partition | written after start | Spring's factory: seen  lost | Gapless factory: seen  lost");
        int plainLost = 0;
        int gaplessLost = 0;
        for (int p : new TreeMap<>(written).keySet()) {
            int writtenAfter = (int) afterStart(p).stream().filter(v -> !v.startsWith("marker")).count();
            int pl = lost(plainSeen, p);
            int gl = lost(gaplessSeen, p);
            plainLost += pl;
            gaplessLost += gl;
            String note = p >= 4 ? "  (added while stopped)" : p >= 2 ? "  (added while running)" : "";
            out.printf("%16d | %19d | %23d %5d | %21d %5d%s%n", p, writtenAfter, writtenAfter - pl, pl, writtenAfter - gl, gl, note);
        }
        out.printf("lost: Spring's factory %d, Gapless %d; history replayed: %d and %d; duplicates: %d and %d%n",
                plainLost, gaplessLost, historyReplayed(plainSeen), historyReplayed(gaplessSeen), plainDuplicates, gaplessDuplicates);
        out.println();
        out.printf("payments: %d; read_committed enriched output: %d records, %d distinct, %d duplicates; share group fully acknowledged: %s%n",
                payments, enriched.size(), new HashSet<>(enriched).size(), enrichedDuplicates(), paymentsAcknowledged);
        out.flush();
    }
}
