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
package io.gapless.kafka.share.admin;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.DescribeConfigsResult;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/** An {@link Admin} that forwards to a real one and records which methods were called. */
final class RecordingAdmin {
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final Admin admin;

    RecordingAdmin(Admin delegate) {
        this(delegate, Set.of());
    }

    /**
     * @param hidden resource types for which {@code describeConfigs} answers with an empty config,
     *               as a broker that lists nothing (or a client without permission) would see
     */
    RecordingAdmin(Admin delegate, Set<ConfigResource.Type> hidden) {
        this.admin = (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[]{Admin.class},
                (proxy, method, args) -> {
                    calls.add(method.getName());
                    if (method.getName().equals("describeConfigs") && isOnly(args[0], hidden)) {
                        return emptyDescribe(args[0]);
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static boolean isOnly(Object resources, Set<ConfigResource.Type> types) {
        return ((Collection<?>) resources).stream().allMatch(r -> types.contains(((ConfigResource) r).type()));
    }

    private static DescribeConfigsResult emptyDescribe(Object resources) {
        Map<ConfigResource, KafkaFuture<Config>> futures = new HashMap<>();
        for (Object r : (Collection<?>) resources) {
            futures.put((ConfigResource) r, KafkaFuture.completedFuture(new Config(List.of())));
        }
        return new DescribeConfigsResult(futures) {
        };
    }

    Admin admin() {
        return admin;
    }

    /** How many times a method of that name was called. */
    long count(String method) {
        return calls.stream().filter(method::equals).count();
    }
}
