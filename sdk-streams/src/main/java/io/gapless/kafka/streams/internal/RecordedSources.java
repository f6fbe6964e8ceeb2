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
package io.gapless.kafka.streams.internal;

import org.apache.kafka.streams.Topology;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * Links a {@link Topology} to the sources recorded while it was built ({@code GaplessStreamsBuilder}
 * builds into a plain {@code Topology}). Weak keys: a topology nobody holds any more is forgotten.
 * {@code Topology} does not override {@code equals}, so keys compare by identity.
 */
public final class RecordedSources {
    private static final Map<Topology, SourcePolicies> BY_TOPOLOGY = Collections.synchronizedMap(new WeakHashMap<>());

    private RecordedSources() {
    }

    public static void register(Topology topology, SourcePolicies sources) {
        BY_TOPOLOGY.put(topology, sources);
    }

    public static Optional<SourcePolicies> lookup(Topology topology) {
        return Optional.ofNullable(BY_TOPOLOGY.get(topology));
    }
}
