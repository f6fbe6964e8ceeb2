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

/** One variant of the consume-transform-produce loop: read a topic, write a transformed copy, commit per batch. */
public interface TransformLoop {

    /** Short name used in metric names, e.g. {@code consumer_eos}. */
    String name();

    /**
     * Processes at least {@code records} records of {@code input} into {@code output} with a fresh group,
     * {@code batch} records per poll and one commit per poll.
     */
    LoopOutcome run(BenchmarkContext ctx, String input, String output, int records, int batch, int run);

    /** The transformation: the value reversed, so the output is not a byte-for-byte copy. */
    static byte[] transform(byte[] value) {
        byte[] out = new byte[value.length];
        for (int i = 0; i < value.length; i++) {
            out[i] = value[value.length - 1 - i];
        }
        return out;
    }
}
