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
package io.gapless.kafka.core;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;

/**
 * One value of Kafka's {@code auto.offset.reset} value space: {@code earliest}, {@code latest},
 * {@code none} or {@code by_duration:<ISO-8601 duration>}. Immutable, with value equality;
 * {@link #toString()} prints the value as Kafka's configuration would spell it.
 *
 * @since 0.1.0
 */
public final class ResetPolicy {

    /** The kind of reset a policy performs. */
    public enum Kind {
        /** Seek to the log start offset. */
        EARLIEST,
        /** Seek to the log end offset (the last stable offset under {@code read_committed}). */
        LATEST,
        /** Do not reset: the consumer throws {@code NoOffsetForPartitionException}. */
        NONE,
        /** Seek to the first record at or after {@code now - duration}; to the end if there is none. */
        BY_DURATION
    }

    private static final String BY_DURATION_PREFIX = "by_duration:";

    public static final ResetPolicy EARLIEST = new ResetPolicy(Kind.EARLIEST, null);
    public static final ResetPolicy LATEST = new ResetPolicy(Kind.LATEST, null);
    public static final ResetPolicy NONE = new ResetPolicy(Kind.NONE, null);

    private final Kind kind;
    private final Duration duration;

    private ResetPolicy(Kind kind, Duration duration) {
        this.kind = kind;
        this.duration = duration;
    }

    /**
     * A {@code by_duration} policy; the duration must not be negative.
     *
     * @throws IllegalArgumentException if {@code duration} is negative
     * @throws NullPointerException if {@code duration} is null
     */
    public static ResetPolicy byDuration(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("by_duration needs a non-negative duration, got " + duration);
        }
        return new ResetPolicy(Kind.BY_DURATION, duration);
    }

    /**
     * Parses a value of the {@code auto.offset.reset} value space, case-insensitively.
     *
     * @throws IllegalArgumentException naming the value when it is not one of them, or when the
     *                                  duration is unparsable or negative
     */
    public static ResetPolicy parse(String value) {
        if (value == null) {
            throw new IllegalArgumentException("Reset policy must not be null; expected earliest, latest, none or by_duration:<ISO-8601 duration>");
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        switch (v) {
            case "earliest":
                return EARLIEST;
            case "latest":
                return LATEST;
            case "none":
                return NONE;
            default:
                break;
        }
        if (v.startsWith(BY_DURATION_PREFIX)) {
            String iso = value.trim().substring(BY_DURATION_PREFIX.length());
            Duration d;
            try {
                d = Duration.parse(iso);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("Invalid reset policy '" + value + "': '" + iso
                        + "' is not an ISO-8601 duration such as PT1H or P1D", e);
            }
            if (d.isNegative()) {
                throw new IllegalArgumentException("Invalid reset policy '" + value + "': the duration must not be negative");
            }
            return new ResetPolicy(Kind.BY_DURATION, d);
        }
        throw new IllegalArgumentException("Invalid reset policy '" + value
                + "': expected earliest, latest, none or by_duration:<ISO-8601 duration>");
    }

    public Kind kind() {
        return kind;
    }

    /** The look-back of a {@code by_duration} policy; {@code null} for the other kinds. */
    public Duration duration() {
        return duration;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResetPolicy other && kind == other.kind && Objects.equals(duration, other.duration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, duration);
    }

    @Override
    public String toString() {
        return kind == Kind.BY_DURATION ? BY_DURATION_PREFIX + duration : kind.name().toLowerCase(Locale.ROOT);
    }
}
