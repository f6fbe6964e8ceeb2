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
package io.gapless.kafka.share.txn.lookalike;

import java.util.List;

/** Stands in for Kafka's KIP-1289 class of the same name in reflection tests: same constructor and accessors. */
public final class ShareAcknowledgementBatch {
    private final long first;
    private final long last;
    private final List<Byte> types;

    public ShareAcknowledgementBatch(long firstOffset, long lastOffset, List<Byte> acknowledgeTypes) {
        this.first = firstOffset;
        this.last = lastOffset;
        this.types = List.copyOf(acknowledgeTypes);
    }

    public long firstOffset() {
        return first;
    }

    public long lastOffset() {
        return last;
    }

    public List<Byte> acknowledgeTypes() {
        return types;
    }
}
