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

import io.gapless.kafka.core.GaplessConsumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.util.Assert;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Spring Kafka's {@link DefaultKafkaConsumerFactory}, creating {@link GaplessConsumer}s instead of
 * {@code KafkaConsumer}s, so that listener containers get KIP-1327's
 * {@code auto.offset.reset.new.partitions}:
 *
 * <pre>{@code
 * Map<String, Object> props = Map.of(
 *         "bootstrap.servers", "localhost:9092",
 *         "auto.offset.reset", "latest",                     // skip history on first deployment
 *         "auto.offset.reset.new.partitions", "earliest",    // but never lose an added partition
 *         "key.deserializer", StringDeserializer.class, "value.deserializer", StringDeserializer.class);
 * ConsumerFactory<String, String> factory = new GaplessKafkaConsumerFactory<>(props);   // was: new DefaultKafkaConsumerFactory<>(props)
 * }</pre>
 *
 * <p>Everything else is Spring's: group and client-id overrides and suffixes, property overrides,
 * {@link #setBootstrapServersSupplier bootstrap-servers suppliers}, {@code ConsumerPostProcessor}s,
 * deserializer instances and suppliers, {@code updateConfigs}. Only the raw-consumer hook
 * ({@link #createRawConsumer(Map)}) is replaced. {@link ConsumerFactory.Listener}s (such as Spring
 * Boot's {@code MicrometerConsumerListener}) see each {@code GaplessConsumer} added and removed,
 * with the id Spring gives them ({@code <bean name>.<client-id>}); that is why this factory keeps
 * its own listener list: Spring's own list is read only by the {@code KafkaConsumer} subclass it
 * would otherwise create.
 *
 * <p>Give a {@code KafkaTemplate} Spring's own factory for {@code receive}
 * ({@code template.setConsumerFactory(new DefaultKafkaConsumerFactory<>(props))}): {@code receive}
 * reads at an offset the caller names, so no reset policy plays a part, while each call on this
 * factory would build a {@code GaplessConsumer} of the factory's group (a capability probe, helper
 * clients) whose assignment starts that group's baseline, with the cluster as it is at that call,
 * if the group has none yet.
 *
 * @since 0.1.0
 */
public class GaplessKafkaConsumerFactory<K, V> extends DefaultKafkaConsumerFactory<K, V> {

    private final List<ConsumerFactory.Listener<K, V>> listeners = new CopyOnWriteArrayList<>();
    private volatile String beanName = "not.managed.by.Spring";
    private volatile boolean configureDeserializers;

    /** Same as {@link DefaultKafkaConsumerFactory#DefaultKafkaConsumerFactory(Map)}, plus the SDK's settings. */
    public GaplessKafkaConsumerFactory(Map<String, Object> configs) {
        this(configs, () -> null, () -> null, true);
    }

    /** Same as {@link DefaultKafkaConsumerFactory#DefaultKafkaConsumerFactory(Map, Deserializer, Deserializer)}. */
    public GaplessKafkaConsumerFactory(Map<String, Object> configs, Deserializer<K> keyDeserializer,
                                       Deserializer<V> valueDeserializer) {
        this(configs, () -> keyDeserializer, () -> valueDeserializer, true);
    }

    /** Same as {@link DefaultKafkaConsumerFactory#DefaultKafkaConsumerFactory(Map, Deserializer, Deserializer, boolean)}. */
    public GaplessKafkaConsumerFactory(Map<String, Object> configs, Deserializer<K> keyDeserializer,
                                       Deserializer<V> valueDeserializer, boolean configureDeserializers) {
        this(configs, () -> keyDeserializer, () -> valueDeserializer, configureDeserializers);
    }

    /** Same as {@link DefaultKafkaConsumerFactory#DefaultKafkaConsumerFactory(Map, Supplier, Supplier)}. */
    public GaplessKafkaConsumerFactory(Map<String, Object> configs, Supplier<Deserializer<K>> keyDeserializerSupplier,
                                       Supplier<Deserializer<V>> valueDeserializerSupplier) {
        this(configs, keyDeserializerSupplier, valueDeserializerSupplier, true);
    }

    /** Same as {@link DefaultKafkaConsumerFactory#DefaultKafkaConsumerFactory(Map, Supplier, Supplier, boolean)}. */
    public GaplessKafkaConsumerFactory(Map<String, Object> configs, Supplier<Deserializer<K>> keyDeserializerSupplier,
                                       Supplier<Deserializer<V>> valueDeserializerSupplier, boolean configureDeserializers) {
        super(configs, keyDeserializerSupplier, valueDeserializerSupplier, configureDeserializers);
        this.configureDeserializers = configureDeserializers;
    }

    /** Creates the {@link GaplessConsumer}; Spring has already applied overrides and the bootstrap supplier to {@code configProps}. */
    @Override
    protected Consumer<K, V> createRawConsumer(Map<String, Object> configProps) {
        return new ListenedConsumer(configProps);
    }

    @Override
    public void setBeanName(String name) {
        super.setBeanName(name);
        this.beanName = name;
    }

    @Override
    public void setConfigureDeserializers(boolean configureDeserializers) {
        super.setConfigureDeserializers(configureDeserializers);
        this.configureDeserializers = configureDeserializers;
    }

    @Override
    public List<ConsumerFactory.Listener<K, V>> getListeners() {
        return Collections.unmodifiableList(listeners);
    }

    @Override
    public void addListener(ConsumerFactory.Listener<K, V> listener) {
        Assert.notNull(listener, "'listener' cannot be null");
        listeners.add(listener);
    }

    @Override
    public void addListener(int index, ConsumerFactory.Listener<K, V> listener) {
        Assert.notNull(listener, "'listener' cannot be null");
        listeners.add(Math.min(index, listeners.size()), listener);
    }

    @Override
    public boolean removeListener(ConsumerFactory.Listener<K, V> listener) {
        return listeners.remove(listener);
    }

    /** A {@link GaplessConsumer} that tells the factory's listeners when it is created and closed, as Spring's own consumers do. */
    private final class ListenedConsumer extends GaplessConsumer<K, V> {
        private final String idForListeners;

        ListenedConsumer(Map<String, Object> configProps) {
            super(configProps, Deserializers.configured(getKeyDeserializer(), configProps, true, configureDeserializers),
                    Deserializers.configured(getValueDeserializer(), configProps, false, configureDeserializers));
            this.idForListeners = beanName + "." + ClientIdTag.of(metrics());
            for (ConsumerFactory.Listener<K, V> listener : listeners) {
                listener.consumerAdded(idForListeners, this);
            }
        }

        @Override
        public void close() {
            super.close();
            notifyRemoved();
        }

        @Override
        public void close(CloseOptions option) {
            super.close(option);
            notifyRemoved();
        }

        @Override
        @Deprecated
        @SuppressWarnings("deprecation")
        public void close(Duration timeout) {
            super.close(timeout);
            notifyRemoved();
        }

        private void notifyRemoved() {
            for (ConsumerFactory.Listener<K, V> listener : listeners) {
                listener.consumerRemoved(idForListeners, this);
            }
        }
    }
}
