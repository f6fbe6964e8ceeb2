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

import io.gapless.kafka.share.txn.ForwardingProducer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The forwarding bases declare every interface method themselves and hand each call, arguments and all, to the delegate. */
class ForwardingBasesTest {

    /** Calls every method of {@code iface} on {@code forwarding} and returns the methods that did not reach {@code calls} as themselves. */
    private static List<String> notForwarded(Class<?> iface, Object forwarding, List<Method> calls) throws IllegalAccessException {
        List<String> missing = new ArrayList<>();
        for (Method m : iface.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            try {
                // Declared by the base itself: a method Kafka adds (even as a default) must be forwarded here.
                forwarding.getClass().getSuperclass().getDeclaredMethod(m.getName(), m.getParameterTypes());
            } catch (NoSuchMethodException e) {
                missing.add(m + " (not declared)");
                continue;
            }
            Object[] args = new Object[m.getParameterCount()];
            for (int i = 0; i < args.length; i++) {
                args[i] = defaultValue(m.getParameterTypes()[i]);
            }
            calls.clear();
            try {
                m.invoke(forwarding, args);
            } catch (InvocationTargetException e) {
                missing.add(m + " threw " + e.getCause());
                continue;
            }
            if (calls.size() != 1 || !calls.get(0).equals(m)) {
                missing.add(m + " reached " + calls);
            }
        }
        return missing;
    }

    private static Object defaultValue(Class<?> type) {
        if (type == boolean.class) {
            return Boolean.FALSE;
        }
        if (type == int.class) {
            return Integer.valueOf(0);
        }
        if (type == long.class) {
            return Long.valueOf(0);
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static <T> T recorder(Class<T> iface, List<Method> calls) {
        return (T) Proxy.newProxyInstance(iface.getClassLoader(), new Class<?>[]{iface}, (proxy, method, args) -> {
            calls.add(method);
            return method.getReturnType().isPrimitive() ? defaultValue(method.getReturnType()) : null;
        });
    }

    @Test
    void forwardingShareConsumerForwardsEveryMethod() throws Exception {
        List<Method> calls = new ArrayList<>();
        ShareConsumer<Object, Object> delegate = recorder(ShareConsumer.class, calls);
        ForwardingShareConsumer<Object, Object> forwarding = new ForwardingShareConsumer<>() {
            @Override
            protected ShareConsumer<Object, Object> delegate() {
                return delegate;
            }
        };
        assertEquals(List.of(), notForwarded(ShareConsumer.class, forwarding, calls));
    }

    @Test
    void forwardingProducerForwardsEveryMethod() throws Exception {
        List<Method> calls = new ArrayList<>();
        Producer<Object, Object> delegate = recorder(Producer.class, calls);
        ForwardingProducer<Object, Object> forwarding = new ForwardingProducer<>() {
            @Override
            protected Producer<Object, Object> delegate() {
                return delegate;
            }
        };
        assertEquals(List.of(), notForwarded(Producer.class, forwarding, calls));
    }
}
