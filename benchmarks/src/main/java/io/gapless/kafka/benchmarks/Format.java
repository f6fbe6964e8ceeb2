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

import java.util.Locale;

/** Number formatting shared by the table and the {@code RESULT} lines. */
public final class Format {
    private Format() {
    }

    /** Three significant decimals at most, no grouping, dot as decimal separator. */
    public static String number(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        double abs = Math.abs(v);
        String pattern = abs >= 100 ? "%.0f" : abs >= 10 ? "%.1f" : abs >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, pattern, v);
    }

    /** A ratio with three decimals. */
    public static String ratio(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.3f", v);
    }

    /** Records per second, thousands as {@code k}. */
    public static String rate(double perSecond) {
        return Double.isNaN(perSecond) ? "n/a" : String.format(Locale.ROOT, "%.1fk rec/s", perSecond / 1000);
    }

    /** Milliseconds with one decimal. */
    public static String millis(double ms) {
        return Double.isNaN(ms) ? "n/a" : String.format(Locale.ROOT, "%.1f ms", ms);
    }

    /** Microseconds, whole. */
    public static String micros(double us) {
        return Double.isNaN(us) ? "n/a" : String.format(Locale.ROOT, "%.0f us", us);
    }

    /** A signed millisecond difference, e.g. {@code +12.3 ms} or {@code -4.0 ms}. */
    public static String delta(double ms) {
        return Double.isNaN(ms) ? "n/a" : String.format(Locale.ROOT, "%+.1f ms", ms);
    }
}
