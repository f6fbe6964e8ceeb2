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
package io.gapless.kafka.e2e.share;

import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.txn.ShareAcknowledgements;
import io.gapless.kafka.share.txn.TransactionPhase;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A consume-transform-produce worker run as a child JVM by the share fault suites. It copies every
 * input record to the output topic in a producer transaction that also carries the record's share
 * acknowledgement, and injects one fault kind, from {@code key=value} arguments:
 * <ul>
 *   <li>{@code halt=<point>} with {@code after=<n>}: {@code Runtime.halt} (as abrupt as SIGKILL) at a
 *       named point of the n-th transaction: before-begin, after-send, after-stage, and the producer's
 *       {@link TransactionPhase}s (ledger-written, checked, committed, acknowledged, snapshot-written,
 *       snapshot-delete-issued); {@code inside-commit}: at {@code checked} it prints {@code FREEZE},
 *       waits for {@code go <node id>} (the test froze that transaction coordinator), lets
 *       {@code commitTransaction()} send its EndTxn and halts as soon as the producer's request
 *       count to that node grows (EndTxn sent, no reply);</li>
 *   <li>{@code stall=<ms>|stdin} with {@code after=<n>}: pauses that long (or until a line arrives on
 *       stdin) after staging, then tries to commit (fenced zombie); with {@code stallAgain=true} it
 *       pauses before every other commit (lock expiry);</li>
 *   <li>{@code stallAt=<phase>:<ms>} with {@code after=<n>}: sleeps at that producer phase (for
 *       example past the lock with the ledger entry written), once;</li>
 *   <li>{@code pause=<phase>}: on the command {@code arm}, stops at the next such phase, prints
 *       {@code PAUSED <phase>} and waits for {@code go} (the test kills a broker meanwhile);</li>
 *   <li>{@code abort=true}: aborts every other transaction explicitly;</li>
 *   <li>{@code partial=true}: every other transaction also sends a record that fails (too large);</li>
 *   <li>{@code reject=<n>}: records whose value index is a multiple of n are REJECTed, with no output;</li>
 *   <li>{@code stallOdds=<n>}: with {@code stallAgain=true}, one commit in n stalls (default 2);</li>
 *   <li>{@code ack=explicit}: upstream's form ({@code share.acknowledgement.mode=explicit}, {@code acknowledge}
 *       per record, {@code acknowledgementsForTransaction()}) instead of the SDK's {@code transactional} mode;</li>
 *   <li>{@code trace=true}: prints {@code POLLING} before every poll and {@code POLLED <offset>:<delivery count>,...}
 *       for every poll that returned records.</li>
 * </ul>
 * A {@code TimeoutException} from {@code commitTransaction()} is retried, as Kafka's producer
 * contract asks. Events go to stdout as lines starting with {@code EVENT}. {@code ledger} names one
 * shared ledger topic; without it each group has its own.
 */
public final class ShareCtpWorker {
    static final int HALT_EXIT = 99;
    static final int FENCED_EXIT = 3;
    private static final int COMMIT_RETRIES = 10;

    private final Map<String, String> args;
    private final PrintStream out = System.out;
    private int transactions;
    private final java.io.BufferedReader stdin = new java.io.BufferedReader(
            new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
    private final AtomicReference<TransactionalShareProducer<String, String>> producerRef = new AtomicReference<>();
    private volatile boolean clean;
    private volatile boolean armed;
    private boolean stalledAt;
    private double archivedReported;
    private final java.util.concurrent.BlockingQueue<String> releases = new java.util.concurrent.LinkedBlockingQueue<>();

    private ShareCtpWorker(Map<String, String> args) {
        this.args = args;
    }

    public static void main(String[] argv) {
        Map<String, String> args = new HashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        new ShareCtpWorker(args).run();
    }

    private void event(String what) {
        out.println("EVENT " + what);
        out.flush();
    }

    /** stdin commands: "go ..." releases a stall or pause, "arm" arms the pause, "clean" stops injecting faults. */
    private void readCommands() {
        try {
            String line;
            while ((line = stdin.readLine()) != null) {
                if (line.equals("clean")) {
                    clean = true;
                } else if (line.equals("arm")) {
                    armed = true;
                    continue;
                }
                releases.add(line);
            }
        } catch (java.io.IOException e) {
            // The test closed our stdin.
        }
    }

    private boolean due() {
        return !clean && transactions >= Integer.parseInt(args.getOrDefault("after", "0"));
    }

    private void point(String name) {
        if (name.equals(args.get("halt")) && due()) {
            event("HALT " + name);
            Runtime.getRuntime().halt(HALT_EXIT);
        }
    }

    /** What this worker does when its producer reaches a commit phase. */
    private void phase(TransactionPhase phase) {
        String label = phase.label();
        try {
            if (armed && !clean && label.equals(args.get("pause"))) {
                armed = false;
                event("PAUSED " + label);
                releases.take();
            }
            String stallAt = args.get("stallAt");
            if (stallAt != null && !stalledAt && due() && stallAt.startsWith(label + ":")) {
                stalledAt = true;
                event("STALLED " + label);
                Thread.sleep(Long.parseLong(stallAt.substring(label.length() + 1)));
            }
            if ("inside-commit".equals(args.get("halt")) && label.equals("checked") && due()) {
                event("FREEZE");
                String go = releases.take();
                haltOnceSent(Integer.parseInt(go.substring(go.indexOf(' ') + 1).trim()));
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        point(label);
    }

    /** Halts as soon as the producer has sent one more request to {@code node} (the EndTxn of the commit that follows). */
    private void haltOnceSent(int node) {
        double before = requestsTo(node);
        Thread watcher = new Thread(() -> {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (requestsTo(node) <= before && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            event("HALT inside-commit" + (requestsTo(node) > before ? "" : " (no request seen)"));
            Runtime.getRuntime().halt(HALT_EXIT);
        }, "halt-once-sent");
        watcher.setDaemon(true);
        watcher.start();
    }

    private double requestsTo(int node) {
        for (Map.Entry<MetricName, ? extends Metric> m : producerRef.get().metrics().entrySet()) {
            MetricName n = m.getKey();
            if (n.name().equals("request-total") && n.group().equals("producer-node-metrics")
                    && ("node-" + node).equals(n.tags().get("node-id"))) {
                return ((Number) m.getValue().metricValue()).doubleValue();
            }
        }
        return 0;
    }

    private void reportArchived(GaplessShareConsumer<String, String> consumer) {
        for (Map.Entry<MetricName, ? extends Metric> m : consumer.metrics().entrySet()) {
            if (m.getKey().name().equals("records-archived-by-delivery-limit-total")) {
                double total = ((Number) m.getValue().metricValue()).doubleValue();
                if (total > archivedReported) {
                    event("ARCHIVED " + (long) (total - archivedReported));
                    archivedReported = total;
                }
            }
        }
    }

    private static long index(String value) {
        return Long.parseLong(value.substring(1));
    }

    private void run() {
        String bootstrap = args.get("bootstrap");
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, args.get("group"));
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, args.get("id") + "-consumer");
        boolean explicit = "explicit".equals(args.get("ack"));
        c.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG,
                explicit ? "explicit" : GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL);
        c.put(GaplessShareConfig.FALLBACK_CONFIG, args.get("fallback"));
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 3);
        c.put("share.acquire.mode", "record_limit");
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, args.get("txn"));
        p.put(ProducerConfig.CLIENT_ID_CONFIG, args.get("id") + "-producer");
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 5000);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30000);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 10_000);
        p.put(GaplessShareConfig.FALLBACK_CONFIG, args.get("fallback"));
        if (args.containsKey("ledger")) {
            c.put(GaplessShareConfig.LEDGER_TOPIC_CONFIG, args.get("ledger"));
            p.put(GaplessShareConfig.LEDGER_TOPIC_CONFIG, args.get("ledger"));
        }
        p.put(GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, args.getOrDefault("snapshotBytes", "4096"));
        String output = args.get("output");
        int reject = Integer.parseInt(args.getOrDefault("reject", "0"));
        Random random = new Random(Long.parseLong(args.getOrDefault("seed", "1")));
        p.put(TransactionPhase.LISTENER_CONFIG, (TransactionPhase.Listener) this::phase);
        Thread commands = new Thread(this::readCommands, "commands");
        commands.setDaemon(true);
        commands.start();

        try (GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(args.get("input")));
            TransactionalShareProducer<String, String> producer = new TransactionalShareProducer<>(p, new StringSerializer(), new StringSerializer());
            producerRef.set(producer);
            producer.initTransactions();
            event("READY");
            if (Boolean.parseBoolean(args.get("warmup"))) {
                // Only loads the classes for the shared class archive; exits normally so it is written.
                consumer.poll(Duration.ofMillis(100));
                producer.close(Duration.ofSeconds(5));
                consumer.close(Duration.ZERO);
                System.exit(0);
            }
            while (true) {
                if (Boolean.parseBoolean(args.get("trace"))) {
                    // A worker killed after this line and before POLLED may hold records it never reported.
                    event("POLLING");
                }
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                reportArchived(consumer);
                if (records.isEmpty()) {
                    continue;
                }
                if (Boolean.parseBoolean(args.get("trace"))) {
                    StringBuilder polled = new StringBuilder("POLLED ");
                    for (ConsumerRecord<String, String> r : records) {
                        polled.append(r.offset()).append(':').append(r.deliveryCount().orElse((short) 1)).append(',');
                    }
                    event(polled.substring(0, polled.length() - 1));
                }
                point("before-begin");
                try {
                    producer.beginTransaction();
                    ShareAcknowledgements acks = new ShareAcknowledgements();
                    for (ConsumerRecord<String, String> r : records) {
                        boolean rejected = reject > 0 && index(r.value()) % reject == 0;
                        if (!rejected) {
                            producer.send(new ProducerRecord<>(output, r.key(), r.value()));
                        }
                        if (explicit) {
                            consumer.acknowledge(r, rejected ? AcknowledgeType.REJECT : AcknowledgeType.ACCEPT);
                        } else {
                            acks.add(r, rejected ? AcknowledgeType.REJECT : AcknowledgeType.ACCEPT);
                        }
                    }
                    if (explicit) {
                        acks = consumer.acknowledgementsForTransaction();
                    }
                    boolean partial = !clean && Boolean.parseBoolean(args.get("partial")) && random.nextBoolean();
                    if (partial) {
                        event("PARTIAL");
                        producer.send(new ProducerRecord<>(output, "too-large", "x".repeat(20_000)));
                    }
                    point("after-send");
                    producer.sendShareAcknowledgementsToTransaction(acks, consumer.shareGroupMetadata());
                    point("after-stage");
                    boolean stallAgain = Boolean.parseBoolean(args.get("stallAgain"));
                    int stallOdds = Integer.parseInt(args.getOrDefault("stallOdds", "2"));
                    if (!clean && args.containsKey("stall") && due() && (!stallAgain || random.nextInt(stallOdds) == 0)) {
                        event("STALLED");
                        if (args.get("stall").equals("stdin")) {
                            // A zombie: holds its open transaction until the test has started its successor.
                            releases.take();
                        } else {
                            Thread.sleep(Long.parseLong(args.get("stall")));
                        }
                        if (!stallAgain) {
                            args.remove("stall");
                        }
                    }
                    if (!clean && Boolean.parseBoolean(args.get("abort")) && random.nextBoolean()) {
                        producer.abortTransaction();
                        event("ABORTED explicit");
                        continue;
                    }
                    commit(producer);
                    transactions++;
                    event("COMMITTED " + records.count());
                } catch (ProducerFencedException e) {
                    event("FENCED " + e.getMessage());
                    Runtime.getRuntime().halt(FENCED_EXIT);
                } catch (KafkaException e) {
                    producer.abortTransaction();
                    event("ABORTED " + e.getClass().getSimpleName() + ": " + e.getMessage());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            e.printStackTrace(out);
            event("FAILED " + e);
            Runtime.getRuntime().halt(1);
        }
    }

    // Kafka's producer contract: a commitTransaction() that timed out is called again (the SDK keeps its check going).
    private void commit(TransactionalShareProducer<String, String> producer) {
        for (int attempt = 1; ; attempt++) {
            try {
                producer.commitTransaction();
                return;
            } catch (TimeoutException e) {
                if (attempt >= COMMIT_RETRIES) {
                    throw e;
                }
                event("RETRY commit " + attempt + ": " + e.getMessage());
            }
        }
    }
}
