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
package io.gapless.kafka.core.internal.baseline;

import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The snapshot's pages, and the refusal of brokers without topic ids (issue 23, findings 5 and 7). */
class TopicPagesTest {
    private static final Node NODE = new Node(0, "localhost", 9092);

    @Test
    void pagesCoverEveryTopicOnceInPagesOfAtMostTheSize() {
        List<String> names = IntStream.range(0, 10).mapToObj(i -> "t" + i).toList();
        List<List<String>> pages = TopicPages.pages(names, 3);
        assertEquals(List.of(3, 3, 3, 1), pages.stream().map(List::size).toList());
        assertEquals(names.stream().sorted().toList(), pages.stream().flatMap(List::stream).toList());
        assertEquals(List.of(), TopicPages.pages(List.of(), 3));
        assertThrows(IllegalArgumentException.class, () -> TopicPages.pages(names, 0));
    }

    @Test
    void pagesAreDescribedOneAfterTheOtherAndFoldedByTopicId() {
        Map<String, TopicDescription> cluster = new HashMap<>();
        for (int i = 0; i < 7; i++) {
            cluster.put("t" + i, description("t" + i, Uuid.randomUuid(), i + 1));
        }
        AtomicInteger inFlight = new AtomicInteger();
        List<Integer> pageSizes = new ArrayList<>();
        List<CompletableFuture<Map<String, TopicDescription>>> asked = new ArrayList<>();
        CompletableFuture<Map<Uuid, Integer>> snapshot = TopicPages.describeAsync(cluster.keySet(), 3, new HashMap<>(), page -> {
            assertEquals(1, inFlight.incrementAndGet(), "one page in flight at a time");
            pageSizes.add(page.size());
            CompletableFuture<Map<String, TopicDescription>> f = new CompletableFuture<>();
            asked.add(f);
            Map<String, TopicDescription> out = new HashMap<>();
            page.forEach(n -> out.put(n, cluster.get(n)));
            return f.thenApply(v -> {
                inFlight.decrementAndGet();
                return out;
            });
        });
        for (int i = 0; i < 3; i++) {
            assertEquals(i + 1, asked.size(), "page " + i + " asked only after the one before it answered");
            asked.get(i).complete(Map.of());
        }
        assertEquals(List.of(3, 3, 1), pageSizes);
        Map<Uuid, Integer> expected = new HashMap<>();
        cluster.values().forEach(d -> expected.put(d.topicId(), d.partitions().size()));
        assertEquals(expected, snapshot.join());
    }

    @Test
    void aPageThatFailsEndsTheSnapshotWithoutAskingTheRest() {
        AtomicInteger pages = new AtomicInteger();
        CompletableFuture<Map<Uuid, Integer>> snapshot = TopicPages.describeAsync(List.of("a", "b", "c", "d"), 2, new HashMap<>(), page -> {
            pages.incrementAndGet();
            return CompletableFuture.failedFuture(new TimeoutException("page timed out"));
        });
        CompletionException e = assertThrows(CompletionException.class, snapshot::join);
        assertInstanceOf(TimeoutException.class, e.getCause());
        assertEquals(1, pages.get(), "no page after the failed one");
    }

    /** Brokers before 2.8 describe every topic with Uuid.ZERO_UUID: refused, naming the floor, never folded into one entry. */
    @Test
    void aTopicWithoutIdIsRefusedNamingTheBrokerFloor() {
        Map<Uuid, Integer> snapshot = new HashMap<>();
        TopicPages.add(snapshot, description("has-id", Uuid.randomUuid(), 2));
        UnsupportedVersionException e = assertThrows(UnsupportedVersionException.class,
                () -> TopicPages.add(snapshot, description("orders", Uuid.ZERO_UUID, 4)));
        assertTrue(e.getMessage().contains("topic orders no topic id"), e.getMessage());
        assertTrue(e.getMessage().contains("brokers 2.8 or newer"), e.getMessage());
        assertEquals(1, snapshot.size(), "nothing folded for the topic without id");

        CompletableFuture<Map<Uuid, Integer>> legacy = TopicPages.describeAsync(List.of("a", "b"), 10, new HashMap<>(),
                page -> CompletableFuture.completedFuture(Map.of("a", description("a", Uuid.ZERO_UUID, 1),
                        "b", description("b", Uuid.ZERO_UUID, 3))));
        CompletionException async = assertThrows(CompletionException.class, legacy::join);
        assertInstanceOf(UnsupportedVersionException.class, async.getCause());
    }

    private static TopicDescription description(String name, Uuid id, int partitions) {
        List<TopicPartitionInfo> infos = IntStream.range(0, partitions)
                .mapToObj(p -> new TopicPartitionInfo(p, NODE, List.of(NODE), List.of(NODE))).toList();
        return new TopicDescription(name, false, infos, java.util.Set.of(), id);
    }
}
