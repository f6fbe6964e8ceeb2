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

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The public methods of Kafka Streams' internal {@code ConsumerWrapper} as of Kafka Streams 4.4,
 * in two lists: those the SDK must see (its wrapper overrides them, because they read or move
 * positions, or carry the subscription and rebalances the reset plan follows) and those it lets
 * forward to the delegate. A wrapper with any other method belongs to a newer Kafka Streams that
 * may call it instead of one the SDK sees ({@link StreamsProtocolHook} then refuses to start), and
 * the SDK's wrapper is checked to override exactly the first list.
 */
final class WrapperMethods {
    /** The methods {@code GaplessConsumerWrapper} overrides: positions, seeks, polls, subscriptions, the hook, close. */
    static final Set<String> SDK_SEES = Set.of(
            "wrapConsumer(AsyncKafkaConsumer,Map,Optional)",
            "poll(Duration)",
            "position(TopicPartition)", "position(TopicPartition,Duration)",
            "seek(TopicPartition,long)", "seek(TopicPartition,OffsetAndMetadata)",
            "seekToBeginning(Collection)", "seekToEnd(Collection)",
            "subscribe(Collection)", "subscribe(Collection,ConsumerRebalanceListener)", "subscribe(Collection,StreamsRebalanceListener)",
            "subscribe(Pattern)", "subscribe(Pattern,ConsumerRebalanceListener)",
            "subscribe(SubscriptionPattern)", "subscribe(SubscriptionPattern,ConsumerRebalanceListener)",
            "assign(Collection)", "unsubscribe()", "wakeup()", "metrics()",
            "close()", "close(Duration)", "close(CloseOptions)");

    /** The methods that forward to the delegate unchanged: none reads or moves a position the SDK decides. */
    static final Set<String> FORWARDED = Set.of(
            "partitionsFor(String)", "partitionsFor(String,Duration)", "listTopics()", "listTopics(Duration)",
            "beginningOffsets(Collection)", "beginningOffsets(Collection,Duration)",
            "endOffsets(Collection)", "endOffsets(Collection,Duration)",
            "committed(Set)", "committed(Set,Duration)", "offsetsForTimes(Map)", "offsetsForTimes(Map,Duration)",
            "currentLag(TopicPartition)", "subscription()", "assignment()", "paused()", "groupMetadata()",
            "clientInstanceId(Duration)", "commitAsync()", "commitAsync(Map,OffsetCommitCallback)", "commitAsync(OffsetCommitCallback)",
            "commitSync()", "commitSync(Duration)", "commitSync(Map)", "commitSync(Map,Duration)",
            "enforceRebalance()", "enforceRebalance(String)", "pause(Collection)", "resume(Collection)",
            "registerMetricForSubscription(KafkaMetric)", "unregisterMetricFromSubscription(KafkaMetric)");

    private WrapperMethods() {
    }

    /** Whether {@code m} is one a caller of the wrapper can reach: public, an instance method, not Object's, not compiler-made. */
    static boolean callable(Method m) {
        return Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()
                && m.getDeclaringClass() != Object.class;
    }

    static boolean known(Method m) {
        String s = signature(m);
        return SDK_SEES.contains(s) || FORWARDED.contains(s);
    }

    /** {@code name(SimpleType,...)}, erased, the form of both lists. */
    static String signature(Method m) {
        return m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(",", "(", ")"));
    }
}
