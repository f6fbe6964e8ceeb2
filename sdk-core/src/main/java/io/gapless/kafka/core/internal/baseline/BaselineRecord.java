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

import org.apache.kafka.common.Uuid;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The records of the baseline topic. Every key carries the writer's id (and the incarnation), so
 * one key never holds two different values and compaction (which keeps the last value per key)
 * cannot replace the record that won by log order.
 *
 * <p>Format 2 adds the group incarnation to every record, the topic snapshot, progress and reset
 * records. Format 1 records (written before incarnations existed) still parse, as incarnation
 * {@code ""} without a snapshot.
 */
public sealed interface BaselineRecord permits BaselineRecord.GroupStarted, BaselineRecord.TopicRegistered,
        BaselineRecord.StartOffsetChosen, BaselineRecord.TopicsSnapshot, BaselineRecord.ProgressSeen, BaselineRecord.GroupReset {
    byte FORMAT_V1 = 1;
    byte FORMAT_VERSION = 2;
    byte GROUP_STARTED = 1;
    byte TOPIC_REGISTERED = 2;
    byte START_OFFSET_CHOSEN = 3;
    byte TOPICS_SNAPSHOT = 4;
    byte PROGRESS_SEEN = 5;
    byte GROUP_RESET = 6;
    /** Snapshot entries per record: 20 bytes each, so a chunk stays far below the default 1 MB message limit. */
    int SNAPSHOT_CHUNK_ENTRIES = 10_000;

    String group();

    String writerId();

    /** The incarnation of the group the record belongs to ({@code ""} for the first one). */
    String incarnation();

    /**
     * The group (incarnation) started using the SDK; {@code adopted} when it already had committed
     * offsets then; {@code snapshotChunks} is the number of {@link TopicsSnapshot} records the
     * writer wrote before it ({@code -1}: format 1, no snapshot).
     */
    record GroupStarted(String group, String writerId, String incarnation, boolean adopted, int snapshotChunks)
            implements BaselineRecord {
    }

    /** Format 1 only (still read, no longer written): a topic first seen by the group, with the partitions new then. */
    record TopicRegistered(String group, String writerId, String incarnation, String topic, Uuid topicId, int partitionCount,
                           Set<Integer> newPartitions, String newReason) implements BaselineRecord {
        public TopicRegistered {
            newPartitions = Set.copyOf(newPartitions);
        }
    }

    /**
     * The offset a share group starts a partition at, chosen by the policy that applied when the
     * group first saw the partition (share groups have no committed offsets; the SDK skips what
     * lies below this offset).
     */
    /**
     * Marks a {@link StartOffsetChosen} that replaces the one recorded before (an operator's reset
     * found on the broker); every other choice keeps the first in log order.
     */
    String SUPERSEDING_POLICY_PREFIX = "superseded-by:";

    record StartOffsetChosen(String group, String writerId, String incarnation, String topic, Uuid topicId, int partition,
                             long offset, String policy) implements BaselineRecord {
    }

    /** One chunk of the topics (id and partition count) that existed when the writer saw the group start. */
    record TopicsSnapshot(String group, String writerId, String incarnation, int chunk, int chunks,
                          Map<Uuid, Integer> partitionCounts) implements BaselineRecord {
        public TopicsSnapshot {
            partitionCounts = Map.copyOf(partitionCounts);
        }
    }

    /**
     * The incarnation has committed offsets for topic {@code topicId}: when the group has none
     * left while such a topic still exists, the Kafka group was deleted or expired.
     */
    record ProgressSeen(String group, String writerId, String incarnation, Uuid topicId) implements BaselineRecord {
    }

    /** Ends incarnation {@code incarnation} (only if it is the current one) and starts {@code next}. */
    record GroupReset(String group, String writerId, String incarnation, String next, String reason) implements BaselineRecord {
    }

    static byte[] key(BaselineRecord record) {
        return write(out -> {
            out.writeByte(FORMAT_VERSION);
            out.writeUTF(record.group());
            out.writeByte(type(record));
            out.writeUTF(record.incarnation());
            if (record instanceof StartOffsetChosen s) {
                out.writeUTF(s.topic());
                out.writeUTF(s.topicId().toString());
                out.writeInt(s.partition());
            } else if (record instanceof TopicsSnapshot s) {
                out.writeInt(s.chunk());
            } else if (record instanceof ProgressSeen g) {
                out.writeUTF(g.topicId().toString());
            } else if (record instanceof TopicRegistered t) {
                out.writeUTF(t.topic());
                out.writeUTF(t.topicId().toString());
            }
            out.writeUTF(record.writerId());
        });
    }

    static byte[] value(BaselineRecord record) {
        return write(out -> {
            out.writeByte(FORMAT_VERSION);
            out.writeUTF(record.group());
            out.writeUTF(record.writerId());
            out.writeUTF(record.incarnation());
            out.writeByte(type(record));
            if (record instanceof GroupStarted g) {
                out.writeBoolean(g.adopted());
                out.writeInt(g.snapshotChunks());
            } else if (record instanceof TopicRegistered t) {
                writeTopicRegistered(out, t);
            } else if (record instanceof StartOffsetChosen c) {
                out.writeUTF(c.topic());
                out.writeUTF(c.topicId().toString());
                out.writeInt(c.partition());
                out.writeLong(c.offset());
                out.writeUTF(c.policy());
            } else if (record instanceof TopicsSnapshot s) {
                out.writeInt(s.chunk());
                out.writeInt(s.chunks());
                out.writeInt(s.partitionCounts().size());
                for (Map.Entry<Uuid, Integer> e : s.partitionCounts().entrySet()) {
                    out.writeLong(e.getKey().getMostSignificantBits());
                    out.writeLong(e.getKey().getLeastSignificantBits());
                    out.writeInt(e.getValue());
                }
            } else if (record instanceof ProgressSeen g) {
                out.writeUTF(g.topicId().toString());
            } else if (record instanceof GroupReset r) {
                out.writeUTF(r.next());
                out.writeUTF(r.reason());
            }
        });
    }

    /** Decodes a value; {@code null} for tombstones and for formats this version does not know. */
    static BaselineRecord parse(byte[] value) {
        if (value == null || value.length == 0 || (value[0] != FORMAT_VERSION && value[0] != FORMAT_V1)) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            boolean v1 = in.readByte() == FORMAT_V1;
            String group = in.readUTF();
            String writer = in.readUTF();
            String incarnation = v1 ? "" : in.readUTF();
            byte type = in.readByte();
            switch (type) {
                case GROUP_STARTED:
                    return new GroupStarted(group, writer, incarnation, in.readBoolean(), v1 ? -1 : in.readInt());
                case TOPIC_REGISTERED: {
                    String topic = in.readUTF();
                    Uuid id = Uuid.fromString(in.readUTF());
                    int count = in.readInt();
                    int n = in.readInt();
                    Set<Integer> news = new HashSet<>();
                    for (int i = 0; i < n; i++) {
                        news.add(in.readInt());
                    }
                    return new TopicRegistered(group, writer, incarnation, topic, id, count, news, in.readUTF());
                }
                case START_OFFSET_CHOSEN: {
                    String topic = in.readUTF();
                    Uuid id = Uuid.fromString(in.readUTF());
                    int partition = in.readInt();
                    long offset = in.readLong();
                    return new StartOffsetChosen(group, writer, incarnation, topic, id, partition, offset, in.readUTF());
                }
                case TOPICS_SNAPSHOT: {
                    int chunk = in.readInt();
                    int chunks = in.readInt();
                    int n = in.readInt();
                    Map<Uuid, Integer> counts = new HashMap<>(n * 2);
                    for (int i = 0; i < n; i++) {
                        counts.put(new Uuid(in.readLong(), in.readLong()), in.readInt());
                    }
                    return new TopicsSnapshot(group, writer, incarnation, chunk, chunks, counts);
                }
                case PROGRESS_SEEN:
                    return new ProgressSeen(group, writer, incarnation, Uuid.fromString(in.readUTF()));
                case GROUP_RESET:
                    return new GroupReset(group, writer, incarnation, in.readUTF(), in.readUTF());
                default:
                    return null;
            }
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    private static byte type(BaselineRecord record) {
        if (record instanceof GroupStarted) {
            return GROUP_STARTED;
        } else if (record instanceof TopicRegistered) {
            return TOPIC_REGISTERED;
        } else if (record instanceof StartOffsetChosen) {
            return START_OFFSET_CHOSEN;
        } else if (record instanceof TopicsSnapshot) {
            return TOPICS_SNAPSHOT;
        } else if (record instanceof ProgressSeen) {
            return PROGRESS_SEEN;
        }
        return GROUP_RESET;
    }

    private static void writeTopicRegistered(DataOutputStream out, TopicRegistered t) throws IOException {
        out.writeUTF(t.topic());
        out.writeUTF(t.topicId().toString());
        out.writeInt(t.partitionCount());
        out.writeInt(t.newPartitions().size());
        for (int p : new TreeSet<>(t.newPartitions())) {
            out.writeInt(p);
        }
        out.writeUTF(t.newReason());
    }

    private static byte[] write(IoWriter writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @FunctionalInterface
    interface IoWriter {
        void write(DataOutputStream out) throws IOException;
    }
}
