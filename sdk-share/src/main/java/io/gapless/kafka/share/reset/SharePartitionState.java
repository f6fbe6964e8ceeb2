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
package io.gapless.kafka.share.reset;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** The broker side of a share group's start offsets: which are initialized, and initializing them while the group is empty. */
final class SharePartitionState {
    private static final Logger log = LoggerFactory.getLogger(SharePartitionState.class);

    private final Admin admin;
    private final String group;
    private final Duration timeout;

    SharePartitionState(Admin admin, String group, Duration timeout) {
        this.admin = admin;
        this.group = group;
        this.timeout = timeout;
    }

    /**
     * Whether the share group exists in Kafka, how many members it has, and the partitions
     * assigned to members other than the asking client.
     */
    record Presence(boolean exists, int members, Set<TopicPartition> assigned) {
    }

    /**
     * The group as Kafka describes it now: a group deleted (or never started) does not exist.
     * Partitions assigned to members with {@code ownClientId} are left out of
     * {@link Presence#assigned()}: Kafka's heartbeat sends a new subscription before the SDK's
     * check runs, so the asking member may be assigned already, and it has read nothing since.
     * (Members sharing the client id are left out too; the check then errs towards delivering.)
     */
    Presence presence(String ownClientId) {
        try {
            ShareGroupDescription d = admin.describeShareGroups(List.of(group)).describedGroups().get(group)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Set<TopicPartition> assigned = new HashSet<>();
            d.members().stream().filter(m -> !m.clientId().equals(ownClientId))
                    .forEach(m -> assigned.addAll(m.assignment().topicPartitions()));
            return new Presence(d.groupState() != GroupState.DEAD, d.members().size(), assigned);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return new Presence(false, 0, Set.of());
            }
            throw new KafkaException("Cannot describe share group " + group, e.getCause());
        } catch (Exception e) {
            throw failure("describe share group " + group, e);
        }
    }

    /**
     * Partitions whose start the broker reports below the one the SDK recorded while the group has
     * no member: an operator's reset (the only way to move a start of an empty group, measured in
     * ShareGroupStateFactsIT), or a skip a stopped member left unfinished (the broker trails
     * acknowledgements and redelivers only what was not acknowledged). Either way the broker's
     * start wins: nothing it delivers from there is acknowledged unseen.
     */
    static Map<TopicPartition, Long> operatorResets(Map<TopicPartition, Long> recorded, Map<TopicPartition, Long> initialized) {
        Map<TopicPartition, Long> out = new HashMap<>();
        recorded.forEach((tp, start) -> {
            Long spso = initialized.get(tp);
            if (spso != null && spso < start) {
                out.put(tp, spso);
            }
        });
        return out;
    }

    /** Share-partition start offsets the broker has initialized, for the partitions asked about. */
    Map<TopicPartition, Long> initializedStartOffsets(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> out = new HashMap<>();
        try {
            Map<TopicPartition, SharePartitionOffsetInfo> all = admin.listShareGroupOffsets(
                            Map.of(group, new ListShareGroupOffsetsSpec().topicPartitions(List.copyOf(partitions))))
                    .partitionsToOffsetInfo(group).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            all.forEach((tp, info) -> {
                if (info != null && info.startOffset() >= 0) {
                    out.put(tp, info.startOffset());
                }
            });
            return out;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return out;
            }
            throw new KafkaException("Cannot list share-group offsets of group " + group, e.getCause());
        } catch (Exception e) {
            throw failure("list share-group offsets of group " + group, e);
        }
    }

    /**
     * Initializes start offsets of partitions the broker has not initialized yet. Only possible
     * while the group has no member; returns whether it was done.
     */
    boolean initializeWhileEmpty(Map<TopicPartition, Long> offsets) {
        if (offsets.isEmpty()) {
            return true;
        }
        try {
            admin.alterShareGroupOffsets(group, offsets).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            log.info("Share group {}: initialized {} partition(s) at their policy start offsets while the group was empty", group, offsets.size());
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupNotEmptyException) {
                log.debug("Share group {} has members: start offsets are enforced by skipping instead", group);
            } else {
                log.info("Share group {}: could not initialize start offsets ({}); they are enforced by skipping instead", group,
                        e.getCause().toString());
            }
            return false;
        } catch (Exception e) {
            throw failure("initialize start offsets of group " + group, e);
        }
    }

    private KafkaException failure(String what, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new KafkaException("Cannot " + what + ": " + e, e);
    }
}
