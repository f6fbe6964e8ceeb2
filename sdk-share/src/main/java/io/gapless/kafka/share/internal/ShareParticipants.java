package io.gapless.kafka.share.internal;

import io.gapless.kafka.share.ShareGroupMetadata;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The open transactional share consumers of this JVM, by the metadata they hand out. */
public final class ShareParticipants {
    private static final Map<ShareGroupMetadata, ShareAckParticipant> OPEN = new ConcurrentHashMap<>();

    private ShareParticipants() {
    }

    public static void register(ShareAckParticipant participant) {
        OPEN.put(participant.metadata(), participant);
    }

    public static void unregister(ShareAckParticipant participant) {
        OPEN.remove(participant.metadata(), participant);
    }

    /**
     * @throws IllegalArgumentException if no open GaplessShareConsumer of this JVM handed out {@code metadata}
     */
    public static ShareAckParticipant lookup(ShareGroupMetadata metadata) {
        ShareAckParticipant p = OPEN.get(metadata);
        if (p == null) {
            throw new IllegalArgumentException(metadata + " does not belong to an open GaplessShareConsumer with "
                    + "share.acknowledgement.mode=transactional in this JVM; pass shareGroupMetadata() of the consumer that "
                    + "polled the records");
        }
        return p;
    }
}
