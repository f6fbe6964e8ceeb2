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
package io.gapless.kafka.streams;

import io.gapless.kafka.core.GaplessConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * The application {@link GaplessStreamsCrashIT} kills: {@code exactly_once_v2}, two counts.
 * {@code direct}: a stateful source task over topics {@code a} and {@code c} (task k reads a-k and
 * c-k), so that a task revived after a crash re-positions source partitions without a committed
 * offset. {@code rekeyed}: topic {@code b} re-keyed through a repartition topic with a fixed
 * partition count, so that {@code b} may grow while the application runs. Base {@code latest},
 * new partitions {@code earliest}. Prints {@code EVENT} lines on stdout: its state changes, and any
 * exception that would end a stream thread.
 *
 * <p>Arguments: bootstrap servers, application id, group protocol, state directory, a, b, c, output topic.
 */
public final class CrashCountApp {
    private CrashCountApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        String bootstrap = args[0];
        String app = args[1];
        String protocol = args[2];
        String stateDir = args[3];
        String a = args[4];
        String b = args[5];
        String c = args[6];
        String out = args[7];

        GaplessStreamsBuilder builder = new GaplessStreamsBuilder();
        builder.<String, String>stream(List.of(a, c))
                .groupByKey()
                .count(Materialized.as("direct"))
                .toStream()
                .to(out, Produced.with(Serdes.String(), Serdes.Long()));
        builder.<String, String>stream(b)
                .selectKey((k, v) -> v)
                .repartition(Repartitioned.<String, String>numberOfPartitions(2).withName("rekey"))
                .groupByKey()
                .count(Materialized.as("rekeyed"))
                .toStream()
                .to(out, Produced.with(Serdes.String(), Serdes.Long()));

        Properties p = StreamsHarness.fastProps(bootstrap, app, protocol, stateDir);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
        p.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, "earliest");

        KafkaStreams streams = GaplessStreams.create(builder, p);
        CountDownLatch done = new CountDownLatch(1);
        streams.setUncaughtExceptionHandler(e -> {
            event("DEATH " + describe(e));
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.setStateListener((now, before) -> {
            event("STATE " + now);
            if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
                done.countDown();
            }
        });
        streams.start();
        done.await(); // runs until killed
        streams.close();
    }

    private static void event(String line) {
        System.out.println("EVENT " + line);
        System.out.flush();
    }

    private static String describe(Throwable t) {
        StringBuilder s = new StringBuilder();
        for (Throwable x = t; x != null; x = x.getCause()) {
            s.append(x.getClass().getName()).append(": ").append(String.valueOf(x.getMessage()).replace('\n', ' ')).append(" | ");
        }
        return s.toString();
    }
}
