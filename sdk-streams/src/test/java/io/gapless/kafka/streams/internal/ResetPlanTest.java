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
package io.gapless.kafka.streams.internal;

import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.core.spi.TopicResetPolicies;
import io.gapless.kafka.streams.NewPartitionsReset;
import org.apache.kafka.streams.AutoOffsetReset;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Precedence of per-source and application-wide policies, and which topics the SDK owns. */
class ResetPlanTest {

    private static ResetPlan plan(SourcePolicies sources, Optional<ResetPolicy> globalNew) {
        return ResetPlan.builder().applicationId("app").sources(sources).globalBase(ResetPolicy.LATEST)
                .globalNewPartitions(globalNew).baselineTopic(BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, "app")).build();
    }

    @Test
    void perTopicPolicyWinsAndPlainPolicyTakesTheGlobalNewPartitionsPolicy() {
        SourcePolicies s = new SourcePolicies();
        s.recordTopics(List.of("undeclared"), null);
        s.recordTopics(List.of("plain-earliest"), AutoOffsetReset.earliest());
        s.recordTopics(List.of("override"), NewPartitionsReset.none().withNewPartitionsResetPolicy(AutoOffsetReset.latest()));
        s.recordTopics(List.of("by-duration"), NewPartitionsReset.latest()
                .withNewPartitionsResetPolicy(AutoOffsetReset.byDuration(Duration.ofHours(2))));
        s.recordPattern(Pattern.compile("logs-.*"), null);
        ResetPlan plan = plan(s, Optional.of(ResetPolicy.EARLIEST));

        assertEquals(Optional.of(new TopicResetPolicies(ResetPolicy.LATEST, Optional.of(ResetPolicy.EARLIEST))), plan.policiesFor("undeclared"));
        assertEquals(Optional.of(new TopicResetPolicies(ResetPolicy.EARLIEST, Optional.of(ResetPolicy.EARLIEST))), plan.policiesFor("plain-earliest"));
        assertEquals(Optional.of(new TopicResetPolicies(ResetPolicy.NONE, Optional.of(ResetPolicy.LATEST))), plan.policiesFor("override"));
        assertEquals(Optional.of(new TopicResetPolicies(ResetPolicy.LATEST, Optional.of(ResetPolicy.byDuration(Duration.ofHours(2))))),
                plan.policiesFor("by-duration"));
        assertEquals(Optional.of(new TopicResetPolicies(ResetPolicy.LATEST, Optional.of(ResetPolicy.EARLIEST))), plan.policiesFor("logs-7"));
        assertTrue(plan.needsClassification());
    }

    @Test
    void internalAndGlobalTopicsAreNotOwned() {
        SourcePolicies s = new SourcePolicies();
        s.recordTopics(List.of("orders"), null);
        s.recordGlobal("countries", null);
        ResetPlan plan = plan(s, Optional.of(ResetPolicy.EARLIEST));
        assertEquals(Optional.empty(), plan.policiesFor("app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"));
        assertEquals(Optional.empty(), plan.policiesFor("app-counts-changelog"));
        assertEquals(Optional.empty(), plan.policiesFor("countries"));
    }

    @Test
    void withoutNewPartitionsPoliciesNoBaselineIsNeeded() {
        SourcePolicies s = new SourcePolicies();
        s.recordTopics(List.of("orders"), NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.latest()));
        s.recordTopics(List.of("payments"), null);
        ResetPlan plan = plan(s, Optional.empty());
        assertFalse(plan.needsClassification(), "new-partitions policy equal to the base: nothing to classify");
        assertTrue(plan.anyNewPartitionsPolicy());
        assertEquals(Optional.of(new TopicResetPolicies(ResetPolicy.LATEST, Optional.empty())), plan.policiesFor("payments"));
    }
}
