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

import io.gapless.kafka.core.NewPartitionsMode;
import io.gapless.kafka.share.admin.ShareGroupConfigSnapshot;
import io.gapless.kafka.share.admin.ShareGroupSetting;

import java.util.Optional;

/**
 * What an emulating member does with its group's {@code share.auto.offset.reset} when it prepares
 * (sdk-share/RATIONALE.md, "Native and emulating members"). The group config decides, not the
 * member's own gate, which was taken once at construction: where
 * {@code share.auto.offset.reset.new.partitions} is set on the group, the broker knows the key and
 * applies KIP-1327 to the group (a native member or an operator set it), and steering the base
 * policy to {@code earliest} would overwrite what the native members rely on. So in {@code auto}
 * mode the member steps aside and runs natively; with {@code gapless.new.partitions.mode=emulate}
 * it refuses (before Kafka's poll, so nothing is taken). Otherwise it steers, and says so when the
 * group held another value (an operator, a tool or a native member on another broker changed it).
 */
final class SteeringRule {
    private static final String NATIVE_KEY = ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS.key();
    private static final String BASE_KEY = ShareGroupSetting.AUTO_OFFSET_RESET.key();

    /** What to do. */
    enum Action {
        /** Steer to {@code earliest} (the group has no other value of its own, or already has {@code earliest}). */
        STEER,
        /** Steer to {@code earliest}, replacing another value the group held (logged at WARN). */
        STEER_CHANGED,
        /** The group is native: set the group configs as a native member does and filter nothing. */
        STEP_ASIDE,
        /** The group is native and this member is configured to emulate: refuse. */
        FAIL
    }

    /** The action and why, for the log or the exception. */
    record Decision(Action action, String reason) {
    }

    private SteeringRule() {
    }

    static Decision decide(NewPartitionsMode mode, ShareGroupConfigSnapshot group) {
        return decide(mode, setOnGroup(group, ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS),
                setOnGroup(group, ShareGroupSetting.AUTO_OFFSET_RESET));
    }

    /**
     * The rule alone.
     *
     * @param newPartitionsOnGroup the group's own {@code share.auto.offset.reset.new.partitions}, if it has one
     * @param baseOnGroup          the group's own {@code share.auto.offset.reset}, if it has one
     */
    static Decision decide(NewPartitionsMode mode, Optional<String> newPartitionsOnGroup, Optional<String> baseOnGroup) {
        if (newPartitionsOnGroup.isPresent()) {
            String why = "the group has " + NATIVE_KEY + "=" + newPartitionsOnGroup.get() + " set, so the broker applies KIP-1327 to it"
                    + " (a native member or an operator set it); steering " + BASE_KEY + " to earliest would overwrite the base policy"
                    + " the native members rely on";
            return mode == NewPartitionsMode.EMULATE
                    ? new Decision(Action.FAIL, why + "; use gapless.new.partitions.mode=auto, or remove the group config")
                    : new Decision(Action.STEP_ASIDE, why + ": this member runs natively too");
        }
        if (baseOnGroup.isEmpty() || "earliest".equalsIgnoreCase(baseOnGroup.get().trim())) {
            return new Decision(Action.STEER, baseOnGroup.isEmpty() ? BASE_KEY + " not set on the group" : BASE_KEY + " already earliest");
        }
        return new Decision(Action.STEER_CHANGED, "the group had " + BASE_KEY + "=" + baseOnGroup.get() + " (not the steered earliest:"
                + " an operator, a tool or a member elsewhere changed it); a partition first initialized meanwhile started by it, and"
                + " any records it skipped are counted in records-skipped-by-broker-total");
    }

    private static Optional<String> setOnGroup(ShareGroupConfigSnapshot group, ShareGroupSetting setting) {
        return group.isSetOnGroup(setting) ? group.value(setting) : Optional.empty();
    }
}
