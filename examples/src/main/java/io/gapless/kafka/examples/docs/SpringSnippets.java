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
