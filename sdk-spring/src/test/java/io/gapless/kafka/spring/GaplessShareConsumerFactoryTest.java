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
package io.gapless.kafka.spring;

import io.gapless.kafka.share.GaplessShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.ShareConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.kafka.listener.ShareKafkaMessageListenerContainer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The share factory's Spring features on share consumers that are never polled (no broker). */
class GaplessShareConsumerFactoryTest {

    private static Map<String, Object> props() {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", "localhost:1");
        props.put("key.deserializer", StringDeserializer.class);
        props.put("value.deserializer", StringDeserializer.class);
        return props;
    }

    @Test
    void createsGaplessShareConsumersAndTellsListenersWithSpringsId() {
        GaplessShareConsumerFactory<String, String> factory = new GaplessShareConsumerFactory<>(props());
        factory.setBeanName("ordersShareFactory");
        List<String> events = new ArrayList<>();
        List<ShareConsumer<String, String>> added = new ArrayList<>();
        factory.addListener(new ShareConsumerFactory.Listener<>() {
            @Override
            public void consumerAdded(String id, ShareConsumer<String, String> consumer) {
                events.add("added " + id);
                added.add(consumer);
            }

            @Override
            public void consumerRemoved(String id, ShareConsumer<String, String> consumer) {
                events.add("removed " + id);
                assertSame(added.get(0), consumer);
            }
        });
        ShareConsumer<String, String> consumer = factory.createShareConsumer("orders", "orders-worker-0",
                Map.of("share.acknowledgement.mode", "explicit"));
        assertInstanceOf(GaplessShareConsumer.class, consumer);
        assertSame(consumer, added.get(0));
        consumer.close();
        assertEquals(List.of("added ordersShareFactory.orders-worker-0", "removed ordersShareFactory.orders-worker-0"), events);
    }

    @Test
    void aTransactionalFactoryRefusesAContainerThatWouldAcknowledgeTheRecordsItself() {
        Map<String, Object> props = props();
        props.put("share.acknowledgement.mode", "transactional");
        GaplessShareConsumerFactory<String, String> factory = new GaplessShareConsumerFactory<>(props);
        ContainerProperties containerProps = new ContainerProperties("orders");
        containerProps.setGroupId("orders");
        containerProps.setMessageListener((MessageListener<String, String>) r -> { });
        ShareKafkaMessageListenerContainer<String, String> container = new ShareKafkaMessageListenerContainer<>(factory, containerProps);
        IllegalStateException e = assertThrows(IllegalStateException.class, container::start);
        assertTrue(e.getMessage().contains("ShareAckMode.IMPLICIT"), e.getMessage());
        assertTrue(e.getMessage().contains("share.acknowledgement.mode=transactional"), e.getMessage());
    }
}
