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
