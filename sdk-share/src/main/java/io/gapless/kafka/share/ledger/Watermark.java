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
package io.gapless.kafka.share.ledger;

/**
 * Offsets of a share-partition below {@code offset} were acknowledged or archived for good when a
 * snapshot read the share-partition start offset; {@code maxDelivery} is the highest delivery
 * count of the committed ranges pruned below it, kept in the record format for older readers: no
 * decision reads it any more (a delivery count never proves a later incarnation; issue 22, finding 3).
 * {@link #DEAD} marks a share-partition whose topic id no longer exists.
 */
record Watermark(long offset, short maxDelivery) {
    static final Watermark DEAD = new Watermark(Long.MAX_VALUE, Short.MAX_VALUE);

    Watermark merge(Watermark other) {
        return new Watermark(Math.max(offset, other.offset), (short) Math.max(maxDelivery, other.maxDelivery));
    }
}
