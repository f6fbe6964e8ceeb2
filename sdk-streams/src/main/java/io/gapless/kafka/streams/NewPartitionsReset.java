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
package io.gapless.kafka.streams;

import io.gapless.kafka.streams.internal.DeclaredResetPolicy;
import org.apache.kafka.streams.AutoOffsetReset;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * An {@link AutoOffsetReset} that also carries KIP-1327's reset policy for newly expanded
 * partitions: partitions that did not exist when the Streams application's group (its
 * {@code application.id}) started using the SDK, which recorded a snapshot of the cluster's topics
 * then (a topic created later, or partitions added later). A topic that existed then is
 * pre-existing even when a topology upgrade reads it for the first time. The base policy of this object applies to every
 * other source-topic partition without a committed offset, and to committed offsets out of range.
 *
 * <pre>{@code
 * builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String())
 *     .withOffsetResetPolicy(NewPartitionsReset.latest()
 *         .withNewPartitionsResetPolicy(AutoOffsetReset.earliest())));
 * }</pre>
 *
 * <p>Kafka Streams 4.4 copies every {@code AutoOffsetReset} into an internal type, so the
 * new-partitions policy only takes effect in a topology built with {@link GaplessStreamsBuilder}
 * or {@link GaplessTopology} and started with {@link GaplessStreams#create}. The new-partitions
 * policy must not be {@code none} and must not itself carry a new-partitions policy; both are
 * rejected with a {@code ConfigException} naming the topic when the source is added.
 *
 * <p>Given to a plain {@code StreamsBuilder} or {@code Topology} by mistake, a policy that carries
 * a new-partitions policy fails instead of silently losing records: Kafka Streams sees it as
 * {@code AutoOffsetReset.none()}, so the stream thread stops with Kafka Streams' "No valid
 * committed offset found for input [...] and no valid reset policy configured" at the first
 * partition of that source without a committed offset. A policy without a new-partitions policy
 * ({@code NewPartitionsReset.latest()}) is exactly its base policy there.
 *
 * <p>Immutable. Equality includes the new-partitions policy; like {@code AutoOffsetReset} it also
 * compares classes, so {@code NewPartitionsReset.latest()} does not equal
 * {@code AutoOffsetReset.latest()}.
 *
 * @since 0.1.0
 */
public class NewPartitionsReset extends AutoOffsetReset implements DeclaredResetPolicy {

    private final AutoOffsetReset basePolicy;
    private final AutoOffsetReset newPartitionsPolicy;

    private NewPartitionsReset(AutoOffsetReset basePolicy, AutoOffsetReset newPartitionsPolicy) {
        // What Kafka Streams itself reads: none when a new-partitions policy would otherwise be lost silently.
        super(newPartitionsPolicy == null ? basePolicy : AutoOffsetReset.none());
        this.basePolicy = basePolicy;
        this.newPartitionsPolicy = newPartitionsPolicy;
    }

    /** No reset: a partition without a valid committed offset fails the stream thread (unless a new-partitions policy covers it). */
    public static NewPartitionsReset none() {
        return new NewPartitionsReset(AutoOffsetReset.none(), null);
    }

    /** Reset to the earliest available offset. */
    public static NewPartitionsReset earliest() {
        return new NewPartitionsReset(AutoOffsetReset.earliest(), null);
    }

    /** Reset to the latest offset. */
    public static NewPartitionsReset latest() {
        return new NewPartitionsReset(AutoOffsetReset.latest(), null);
    }

    /** Reset to the first offset at or after {@code now - duration}. */
    public static NewPartitionsReset byDuration(Duration duration) {
        return new NewPartitionsReset(AutoOffsetReset.byDuration(duration), null);
    }

    /**
     * Returns a copy of this policy with {@code newPartitionsPolicy} attached as the policy for
     * newly expanded partitions. Any {@code AutoOffsetReset} except {@code none} is accepted
     * ({@code earliest}, {@code latest}, {@code byDuration}); an invalid one is reported, with the
     * topic, when the source is added to a {@link GaplessStreamsBuilder} or {@link GaplessTopology}.
     *
     * @throws NullPointerException when {@code newPartitionsPolicy} is null
     */
    public NewPartitionsReset withNewPartitionsResetPolicy(AutoOffsetReset newPartitionsPolicy) {
        Objects.requireNonNull(newPartitionsPolicy, "newPartitionsPolicy");
        return new NewPartitionsReset(basePolicy, newPartitionsPolicy);
    }

    /** The base policy: {@code none}, {@code earliest}, {@code latest} or {@code byDuration}, as a plain {@code AutoOffsetReset}. */
    @Override
    public AutoOffsetReset basePolicy() {
        return basePolicy;
    }

    /** The policy for newly expanded partitions, empty when none is attached. */
    @Override
    public Optional<AutoOffsetReset> newPartitionsResetPolicy() {
        return Optional.ofNullable(newPartitionsPolicy);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!super.equals(o)) {
            return false;
        }
        NewPartitionsReset that = (NewPartitionsReset) o;
        return basePolicy.equals(that.basePolicy) && Objects.equals(newPartitionsPolicy, that.newPartitionsPolicy);
    }

    @Override
    public int hashCode() {
        return 31 * basePolicy.hashCode() + Objects.hashCode(newPartitionsPolicy);
    }

    /** For example {@code latest (new partitions: earliest)}. */
    @Override
    public String toString() {
        String base = Text.of(basePolicy);
        return newPartitionsPolicy == null ? base : base + " (new partitions: " + Text.of(newPartitionsPolicy) + ")";
    }

    /** Reads any {@code AutoOffsetReset}'s protected fields through a copy (they are readable only on one's own class). */
    private static final class Text extends AutoOffsetReset {
        private Text(AutoOffsetReset source) {
            super(source);
        }

        static String of(AutoOffsetReset reset) {
            if (reset instanceof NewPartitionsReset npr) {
                return npr.toString();
            }
            Text t = new Text(reset);
            String kind = String.valueOf(t.offsetResetStrategy).toLowerCase(Locale.ROOT);
            return t.duration.map(d -> kind + ":" + d).orElse(kind);
        }
    }
}
