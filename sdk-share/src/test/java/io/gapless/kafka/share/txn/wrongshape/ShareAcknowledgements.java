package io.gapless.kafka.share.txn.wrongshape;

import java.util.Map;

/** A pre-release shape, for reflection tests. */
public final class ShareAcknowledgements {
    public ShareAcknowledgements(Map<?, ?> acknowledgements) {
    }

    public Map<?, ?> acknowledgements() {
        return Map.of();
    }
}
