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
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A consume-transform-produce worker run as a child JVM by {@link TransactionalShareFaultInjectionIT}.
 * It copies every input record to the output topic in a producer transaction that also carries the
 * record's share acknowledgement, and injects one fault kind, from {@code key=value} arguments:
 * <ul>
 *   <li>{@code halt=<point>} with {@code after=<n>}: {@code Runtime.halt} (as abrupt as SIGKILL) at a
 *       named point of the n-th transaction: before-begin, after-send, after-stage, ledger-written,
 *       committed (after the commit, before the acknowledgements);</li>
 *   <li>{@code stall=<ms>|stdin} with {@code after=<n>}: pauses that long (or until a line arrives on
 *       stdin) after staging, then tries to commit (fenced zombie); with {@code stallAgain=true} it
 *       pauses before every other commit (lock expiry);</li>
 *   <li>{@code abort=true}: aborts every other transaction explicitly;</li>
 *   <li>{@code partial=true}: every other transaction also sends a record that fails (too large).</li>
 * </ul>
 * Events go to stdout as lines starting with {@code EVENT}.
 */
public final class ShareCtpWorker {
    static final int HALT_EXIT = 99;
    static final int FENCED_EXIT = 3;

    private final Map<String, String> args;
    private final PrintStream out = System.out;
    private int transactions;
    private final java.io.BufferedReader stdin = new java.io.BufferedReader(
            new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));

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

    private volatile boolean clean;
    private final java.util.concurrent.BlockingQueue<String> releases = new java.util.concurrent.LinkedBlockingQueue<>();

    /** stdin commands: "go" releases a zombie's stall, "clean" stops injecting faults. */
    private void readCommands() {
        try {
            String line;
            while ((line = stdin.readLine()) != null) {
                if (line.equals("clean")) {
                    clean = true;
                }
                releases.add(line);
            }
        } catch (java.io.IOException e) {
            // The test closed our stdin.
        }
    }

    private void point(String name) {
        if (clean) {
            return;
        }
        if (name.equals(args.get("halt")) && transactions >= Integer.parseInt(args.getOrDefault("after", "0"))) {
            event("HALT " + name);
            Runtime.getRuntime().halt(HALT_EXIT);
        }
    }

    private void run() {
        String bootstrap = args.get("bootstrap");
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, args.get("group"));
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, args.get("id") + "-consumer");
        c.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL);
        c.put(GaplessShareConfig.FALLBACK_CONFIG, args.get("fallback"));
        c.put(GaplessShareConfig.LEDGER_TOPIC_CONFIG, args.get("ledger"));
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
        p.put(GaplessShareConfig.LEDGER_TOPIC_CONFIG, args.get("ledger"));
        p.put(GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, args.getOrDefault("snapshotBytes", "4096"));
        String output = args.get("output");
        Random random = new Random(Long.parseLong(args.getOrDefault("seed", "1")));
        p.put(TransactionPhase.LISTENER_CONFIG, (TransactionPhase.Listener) phase -> point(phase.label()));
        Thread commands = new Thread(this::readCommands, "commands");
        commands.setDaemon(true);
        commands.start();

        try (GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(args.get("input")));
            TransactionalShareProducer<String, String> producer = new TransactionalShareProducer<>(p, new StringSerializer(), new StringSerializer());
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
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                point("before-begin");
                try {
                    producer.beginTransaction();
                    for (ConsumerRecord<String, String> r : records) {
                        producer.send(new ProducerRecord<>(output, r.key(), r.value()));
                    }
                    boolean partial = !clean && Boolean.parseBoolean(args.get("partial")) && random.nextBoolean();
                    if (partial) {
                        event("PARTIAL");
                        producer.send(new ProducerRecord<>(output, "too-large", "x".repeat(20_000)));
                    }
                    point("after-send");
                    producer.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT),
                            consumer.shareGroupMetadata());
                    point("after-stage");
                    boolean stallAgain = Boolean.parseBoolean(args.get("stallAgain"));
                    if (!clean && args.containsKey("stall") && transactions >= Integer.parseInt(args.getOrDefault("after", "0"))
                            && (!stallAgain || random.nextBoolean())) {
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
                    producer.commitTransaction();
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
}
