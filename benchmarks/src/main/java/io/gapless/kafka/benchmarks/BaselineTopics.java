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
package io.gapless.kafka.benchmarks;

import io.gapless.kafka.core.spi.BaselineTopic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each group keeps its baseline in a topic of its own ({@code __gapless_baseline.<group>} by
 * default): the benchmarks, which start hundreds of groups, delete a group's topic after its run.
 */
final class BaselineTopics {
    private static final Logger log = LoggerFactory.getLogger(BaselineTopics.class);

    private BaselineTopics() {
    }

    /** Deletes the default baseline topic of {@code group}, if there is one. */
    static void deleteFor(BenchmarkContext ctx, String group) {
        String topic = BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, group).name();
        try {
            ctx.kafka().deleteTopics(topic);
        } catch (RuntimeException e) {
            log.debug("baseline topic {} not deleted ({})", topic, e.toString());
        }
    }
}
