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

import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.springframework.kafka.core.DefaultShareConsumerFactory;
import org.springframework.kafka.core.ShareConsumerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Spring Kafka's {@link DefaultShareConsumerFactory}, creating {@link GaplessShareConsumer}s for
 * {@code ShareKafkaMessageListenerContainer}: share groups get
 * {@code share.auto.offset.reset.new.partitions} (KIP-1327) and, with
 * {@code share.acknowledgement.mode=transactional}, acknowledgements that commit with a
 * {@code TransactionalShareProducer}'s transaction (KIP-1289).
 *
 * <pre>{@code
 * ShareConsumerFactory<String, String> factory = new GaplessShareConsumerFactory<>(props);  // was: new DefaultShareConsumerFactory<>(props)
 * ShareKafkaMessageListenerContainer<String, String> container = new ShareKafkaMessageListenerContainer<>(factory, containerProps);
 * }</pre>
 *
 * <p>Settings are merged as Spring merges them (factory settings, the container's overrides,
 * group and client id, the bootstrap-servers supplier); {@link ShareConsumerFactory.Listener}s
 * see each consumer added and removed with Spring's id ({@code <bean name>.<client-id>}).
 *
 * <p><b>Transactional acknowledgements.</b> With {@code share.acknowledgement.mode=transactional}
 * the producer's transactions settle the records, so the container must neither acknowledge nor
 * reject them: run it with {@code ShareAckMode.IMPLICIT} (the container then only polls and
 * dispatches). The container's {@code EXPLICIT} and {@code MANUAL} modes override the
 * acknowledgement mode with {@code explicit}; this factory refuses that combination with an
 * {@link IllegalStateException} when the container starts, instead of silently dropping the
 * transactional mode.
 *
 * @since 0.1.0
 */
public class GaplessShareConsumerFactory<K, V> extends DefaultShareConsumerFactory<K, V> {

    private volatile String beanName = "not.managed.by.Spring";
    private volatile boolean configureDeserializers;

    /** Same as {@link DefaultShareConsumerFactory#DefaultShareConsumerFactory(Map)}, plus the SDK's settings. */
    public GaplessShareConsumerFactory(Map<String, Object> configs) {
        this(configs, (Supplier<Deserializer<K>>) null, null, true);
    }

    /** Same as {@link DefaultShareConsumerFactory#DefaultShareConsumerFactory(Map, Supplier, Supplier)}. */
    public GaplessShareConsumerFactory(Map<String, Object> configs, Supplier<Deserializer<K>> keyDeserializerSupplier,
                                       Supplier<Deserializer<V>> valueDeserializerSupplier) {
        this(configs, keyDeserializerSupplier, valueDeserializerSupplier, true);
    }

    /** Same as {@link DefaultShareConsumerFactory#DefaultShareConsumerFactory(Map, Deserializer, Deserializer, boolean)}. */
    public GaplessShareConsumerFactory(Map<String, Object> configs, Deserializer<K> keyDeserializer,
                                       Deserializer<V> valueDeserializer, boolean configureDeserializers) {
        this(configs, keyDeserializer != null ? () -> keyDeserializer : null,
                valueDeserializer != null ? () -> valueDeserializer : null, configureDeserializers);
    }

    /** Same as {@link DefaultShareConsumerFactory#DefaultShareConsumerFactory(Map, Supplier, Supplier, boolean)}. */
    public GaplessShareConsumerFactory(Map<String, Object> configs, Supplier<Deserializer<K>> keyDeserializerSupplier,
                                       Supplier<Deserializer<V>> valueDeserializerSupplier, boolean configureDeserializers) {
        super(configs, keyDeserializerSupplier, valueDeserializerSupplier, configureDeserializers);
        this.configureDeserializers = configureDeserializers;
    }

    @Override
    protected ShareConsumer<K, V> createRawConsumer(String groupId, String clientId) {
        return createRawConsumer(groupId, clientId, Map.of());
    }

    /** Creates the {@link GaplessShareConsumer} from the settings merged as Spring merges them. */
    @Override
    protected ShareConsumer<K, V> createRawConsumer(String groupId, String clientId, Map<String, Object> overrideProperties) {
        Map<String, Object> props = new HashMap<>(getConfigurationProperties());
        refuseExplicitOverTransactional(props, overrideProperties);
        props.putAll(overrideProperties);
        if (groupId != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        }
        if (clientId != null) {
            props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        }
        checkBootstrap(props);
        return new ListenedShareConsumer(props);
    }

    private static void refuseExplicitOverTransactional(Map<String, Object> factoryProps, Map<String, Object> overrides) {
        Object configured = factoryProps.get(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG);
        Object override = overrides.get(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG);
        if (isTransactional(configured) && override != null && !isTransactional(override)) {
            throw new IllegalStateException(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG + "="
                    + GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL + " is configured, but the listener container overrides it with "
                    + override + " (its ShareAckMode EXPLICIT or MANUAL). Producer transactions settle transactional records: "
                    + "set ContainerProperties.setShareAckMode(ShareAckMode.IMPLICIT) so that the container leaves them alone");
        }
    }

    private static boolean isTransactional(Object mode) {
        return mode != null && GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL.equalsIgnoreCase(mode.toString().trim());
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

    /** A {@link GaplessShareConsumer} that tells the factory's listeners when it is created and closed, as Spring's own do. */
    private final class ListenedShareConsumer extends GaplessShareConsumer<K, V> {
        private final String idForListeners;

        ListenedShareConsumer(Map<String, Object> props) {
            super(props, Deserializers.configured(getKeyDeserializer(), props, true, configureDeserializers),
                    Deserializers.configured(getValueDeserializer(), props, false, configureDeserializers));
            this.idForListeners = beanName + "." + ClientIdTag.of(metrics());
            for (ShareConsumerFactory.Listener<K, V> listener : getListeners()) {
                listener.consumerAdded(idForListeners, this);
            }
        }

        @Override
        public void close() {
            super.close();
            notifyRemoved();
        }

        @Override
        public void close(Duration timeout) {
            super.close(timeout);
            notifyRemoved();
        }

        private void notifyRemoved() {
            for (ShareConsumerFactory.Listener<K, V> listener : getListeners()) {
                listener.consumerRemoved(idForListeners, this);
            }
        }
    }
}
