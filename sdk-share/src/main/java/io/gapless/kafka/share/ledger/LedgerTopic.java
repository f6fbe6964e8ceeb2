package io.gapless.kafka.share.ledger;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Creates the ack-ledger topic on first use and waits until every partition has a leader. */
final class LedgerTopic {
    private static final Logger log = LoggerFactory.getLogger(LedgerTopic.class);

    private LedgerTopic() {
    }

    /** Creates the topic unless it exists, and returns its partition count once every partition has a leader. */
    static int ensure(Admin admin, LedgerSettings settings) {
        String name = settings.topic();
        NewTopic topic = new NewTopic(name, Optional.of(settings.partitions()),
                settings.replicationFactor() == -1 ? Optional.empty() : Optional.of(settings.replicationFactor()))
                .configs(Map.of("cleanup.policy", "delete", "retention.ms", "-1", "retention.bytes", "-1"));
        try {
            admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            log.info("Created ack-ledger topic {} with {} partition(s)", name, settings.partitions());
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new KafkaException("Cannot create the ack-ledger topic " + name, e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while creating the ack-ledger topic", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Timed out creating the ack-ledger topic " + name, e);
        }
        // Metadata of a topic just created reaches every broker a little later: retry until its
        // partitions have leaders, so the first transaction does not start on a missing partition.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                List<TopicPartitionInfo> partitions = admin.describeTopics(List.of(name)).allTopicNames()
                        .get(30, TimeUnit.SECONDS).get(name).partitions();
                if (partitions.stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                    if (partitions.size() != settings.partitions()) {
                        log.info("Ack-ledger topic {} has {} partitions (configured {}); using {}", name, partitions.size(),
                                settings.partitions(), partitions.size());
                    }
                    return partitions.size();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("Interrupted while describing the ack-ledger topic", e);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
                    throw new KafkaException("Cannot describe the ack-ledger topic " + name, e.getCause());
                }
            } catch (java.util.concurrent.TimeoutException e) {
                throw new TimeoutException("Timed out describing the ack-ledger topic " + name, e);
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("Ack-ledger topic " + name + " has partitions without a leader");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("Interrupted while waiting for the ack-ledger topic", e);
            }
        }
    }
}
