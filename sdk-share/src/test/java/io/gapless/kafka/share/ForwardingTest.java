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
package io.gapless.kafka.share;

import io.gapless.kafka.share.txn.NativeSupport;
import io.gapless.kafka.share.txn.ShareGroupMetadata;
import io.gapless.kafka.share.txn.TestProducers;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import org.apache.kafka.clients.consumer.MockShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Drop-in: every interface method is implemented by the decorator or the forwarding base it extends, and forwards. */
class ForwardingTest {

    private static List<String> notOverridden(Class<?> iface, Class<?> impl) {
        List<String> missing = new ArrayList<>();
        for (Method m : iface.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            try {
                // Implemented by the decorator or the Forwarding* base it extends, never left to an interface default.
                Method own = impl.getMethod(m.getName(), m.getParameterTypes());
                if (own.getDeclaringClass().isInterface() || Modifier.isAbstract(own.getModifiers())) {
                    missing.add(m.toString());
                }
            } catch (NoSuchMethodException e) {
                missing.add(m.toString());
            }
        }
        return missing;
    }

    @Test
    void everyShareConsumerMethodIsOverridden() {
        assertEquals(List.of(), notOverridden(ShareConsumer.class, GaplessShareConsumer.class));
    }

    @Test
    void everyProducerMethodIsOverridden() {
        assertEquals(List.of(), notOverridden(Producer.class, TransactionalShareProducer.class));
    }

    @Test
    void consumerCallsReachTheDelegate() {
        MockShareConsumer<String, String> mock = new MockShareConsumer<>();
        Uuid id = Uuid.randomUuid();
        mock.setClientInstanceId(id);
        try (GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(mock, Map.of("group.id", "g"))) {
            c.subscribe(List.of("a", "b"));
            assertEquals(Set.of("a", "b"), c.subscription());
            assertEquals(id, c.clientInstanceId(java.time.Duration.ofSeconds(1)));
            c.unsubscribe();
            assertEquals(Set.of(), c.subscription());
            assertEquals(new ShareGroupMetadata("g", c.shareGroupMetadata().memberId(), 0), c.shareGroupMetadata());
        }
    }

    @Test
    void producerSerializesAndForwardsSends() {
        MockProducer<byte[], byte[]> mock = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        try (TransactionalShareProducer<String, String> p = TestProducers.wrapping(mock, Map.of(),
                new StringSerializer(), new StringSerializer(), NativeSupport.unsupported())) {
            p.send(new ProducerRecord<>("t", "k", "v"));
            p.flush();
            assertEquals(1, mock.history().size());
            assertArrayEquals("k".getBytes(StandardCharsets.UTF_8), mock.history().get(0).key());
            assertArrayEquals("v".getBytes(StandardCharsets.UTF_8), mock.history().get(0).value());
        }
    }
}
