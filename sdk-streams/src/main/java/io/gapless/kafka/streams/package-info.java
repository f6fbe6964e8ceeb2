/**
 * KIP-1327 for Kafka Streams: declare a new-partitions policy per source
 * ({@link io.gapless.kafka.streams.NewPartitionsReset}) on a
 * {@link io.gapless.kafka.streams.GaplessStreamsBuilder} or {@link io.gapless.kafka.streams.GaplessTopology},
 * or application-wide, and start the application with
 * {@link io.gapless.kafka.streams.GaplessStreams#create(GaplessStreamsBuilder, java.util.Properties)}.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.streams;
