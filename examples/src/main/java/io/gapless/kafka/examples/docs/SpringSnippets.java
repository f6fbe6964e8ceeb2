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
package io.gapless.kafka.examples.docs;

import io.gapless.kafka.spring.GaplessKafkaConsumerFactory;
import org.springframework.kafka.core.ConsumerFactory;

import java.util.HashMap;
import java.util.Map;

/** Spring Kafka on README.md's front page (docs/spring.md shows the Spring demo's own configuration). */
final class SpringSnippets {
    private SpringSnippets() {
    }

    static ConsumerFactory<String, String> frontPage(Map<String, Object> kafkaProperties) {
        // tag::readme-spring[]
        Map<String, Object> props = new HashMap<>(kafkaProperties);           // bootstrap, deserializers, ...
        props.put("auto.offset.reset.new.partitions", "earliest");
        ConsumerFactory<String, String> factory = new GaplessKafkaConsumerFactory<>(props);  // was: new DefaultKafkaConsumerFactory<>(props)
        // end::readme-spring[]
        return factory;
    }
}
