package io.gapless.kafka.benchmarks;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Runs two variants alternately, A B A B ..., so that drift in a noisy shared machine (other
 * builds, GC, page cache) hits both equally. Warm-up pairs run first and are discarded.
 */
public final class Interleaved {
    private static final Logger log = LoggerFactory.getLogger(Interleaved.class);

    private Interleaved() {
    }

    /** The measured runs of both variants, in run order. */
    public record Runs<T>(List<T> plain, List<T> sdk) {
    }

    /**
     * @param plain builds and runs the plain-Kafka variant; the argument is the run number, unique per call
     * @param sdk   the same for the SDK variant
     */
    public static <T> Runs<T> run(String what, int warmupPairs, int pairs, IntFunction<T> plain, IntFunction<T> sdk) {
        int run = 0;
        for (int i = 0; i < warmupPairs; i++) {
            log.info("{}: warm-up pair {}/{}", what, i + 1, warmupPairs);
            // Alternate which variant goes first so neither always profits from a warmer JVM.
            if (i % 2 == 0) {
                plain.apply(run++);
                sdk.apply(run++);
            } else {
                sdk.apply(run++);
                plain.apply(run++);
            }
        }
        List<T> a = new ArrayList<>();
        List<T> b = new ArrayList<>();
        for (int i = 0; i < pairs; i++) {
            log.info("{}: pair {}/{}", what, i + 1, pairs);
            if (i % 2 == 0) {
                a.add(plain.apply(run++));
                b.add(sdk.apply(run++));
            } else {
                b.add(sdk.apply(run++));
                a.add(plain.apply(run++));
            }
            log.info("{}: plain {}", what, a.get(a.size() - 1));
            log.info("{}: sdk   {}", what, b.get(b.size() - 1));
        }
        return new Runs<>(a, b);
    }
}
