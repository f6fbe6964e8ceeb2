package io.gapless.kafka.core.internal.baseline;

import org.apache.kafka.common.Uuid;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * The two kinds of record in the baseline topic. Every key carries the writer's id, so one key
 * never holds two different values and compaction (which keeps the last value per key) cannot
 * replace the record that won by log order.
 */
public sealed interface BaselineRecord permits BaselineRecord.GroupStarted, BaselineRecord.TopicRegistered,
        BaselineRecord.StartOffsetChosen {
    byte FORMAT_VERSION = 1;
    byte GROUP_STARTED = 1;
    byte TOPIC_REGISTERED = 2;
    byte START_OFFSET_CHOSEN = 3;

    String group();

    String writerId();

    /** The group started using the SDK; {@code adopted} when it already had committed offsets then. */
    record GroupStarted(String group, String writerId, boolean adopted) implements BaselineRecord {
    }

    /** A topic seen by the group for the first time, with the partitions that counted as new then. */
    record TopicRegistered(String group, String writerId, String topic, Uuid topicId, int partitionCount,
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
    record StartOffsetChosen(String group, String writerId, String topic, Uuid topicId, int partition, long offset,
                             String policy) implements BaselineRecord {
    }

    static byte[] key(BaselineRecord record) {
        return write(out -> {
            out.writeByte(FORMAT_VERSION);
            out.writeUTF(record.group());
            if (record instanceof TopicRegistered t) {
                out.writeByte(TOPIC_REGISTERED);
                out.writeUTF(t.topic());
                out.writeUTF(t.topicId().toString());
            } else if (record instanceof StartOffsetChosen s) {
                out.writeByte(START_OFFSET_CHOSEN);
                out.writeUTF(s.topic());
                out.writeUTF(s.topicId().toString());
                out.writeInt(s.partition());
            } else {
                out.writeByte(GROUP_STARTED);
            }
            out.writeUTF(record.writerId());
        });
    }

    static byte[] value(BaselineRecord record) {
        return write(out -> {
            out.writeByte(FORMAT_VERSION);
            out.writeUTF(record.group());
            out.writeUTF(record.writerId());
            if (record instanceof GroupStarted g) {
                out.writeByte(GROUP_STARTED);
                out.writeBoolean(g.adopted());
            } else if (record instanceof TopicRegistered t) {
                out.writeByte(TOPIC_REGISTERED);
                out.writeUTF(t.topic());
                out.writeUTF(t.topicId().toString());
                out.writeInt(t.partitionCount());
                out.writeInt(t.newPartitions().size());
                for (int p : new TreeSet<>(t.newPartitions())) {
                    out.writeInt(p);
                }
                out.writeUTF(t.newReason());
            } else if (record instanceof StartOffsetChosen c) {
                out.writeByte(START_OFFSET_CHOSEN);
                out.writeUTF(c.topic());
                out.writeUTF(c.topicId().toString());
                out.writeInt(c.partition());
                out.writeLong(c.offset());
                out.writeUTF(c.policy());
            }
        });
    }

    /** Decodes a value; {@code null} for tombstones and for formats this version does not know. */
    static BaselineRecord parse(byte[] value) {
        if (value == null || value.length == 0 || value[0] != FORMAT_VERSION) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            in.readByte();
            String group = in.readUTF();
            String writer = in.readUTF();
            byte type = in.readByte();
            if (type == GROUP_STARTED) {
                return new GroupStarted(group, writer, in.readBoolean());
            }
            if (type == TOPIC_REGISTERED) {
                String topic = in.readUTF();
                Uuid id = Uuid.fromString(in.readUTF());
                int count = in.readInt();
                int n = in.readInt();
                Set<Integer> news = new HashSet<>();
                for (int i = 0; i < n; i++) {
                    news.add(in.readInt());
                }
                return new TopicRegistered(group, writer, topic, id, count, news, in.readUTF());
            }
            if (type == START_OFFSET_CHOSEN) {
                String topic = in.readUTF();
                Uuid id = Uuid.fromString(in.readUTF());
                int partition = in.readInt();
                long offset = in.readLong();
                return new StartOffsetChosen(group, writer, topic, id, partition, offset, in.readUTF());
            }
            return null;
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
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
