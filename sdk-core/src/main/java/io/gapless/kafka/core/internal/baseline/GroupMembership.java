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

/**
 * A group's members as its coordinator reports them, whatever the group's type.
 *
 * @param kind    the group's type as an operator names it in a message: {@code Consumer} (also a
 *                classic group, and a group that does not exist), {@code Share} or {@code Streams}
 * @param members the number of members now
 */
public record GroupMembership(String kind, int members) {
    static final GroupMembership NONE = new GroupMembership("Consumer", 0);

    /** How an operator reads it: "Share group orders has 2 active member(s)". */
    public String describe(String group) {
        return kind + " group " + group + " has " + members + " active member(s)";
    }
}
