package io.gapless.kafka.testkit.legacy;

import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One child JVM running {@code LegacyBrokerMain}: starts it, copies its output into a log file,
 * waits for its readiness line and stops it. The child stops by itself when this JVM dies, because
 * its stdin (a pipe from this process) then reaches end of file.
 */
final class ChildBroker {
    private static final Logger log = LoggerFactory.getLogger(ChildBroker.class);
    private static final String READY = "GAPLESS-LEGACY-READY";
    private static final String FAILED = "GAPLESS-LEGACY-FAILED";
    private static final int TAIL_LINES = 40;

    private final Process process;
    private final Path logFile;
    private final CompletableFuture<String> readiness = new CompletableFuture<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private final Thread shutdownHook;

    private ChildBroker(Process process, Path logFile) {
        this.process = process;
        this.logFile = logFile;
        this.shutdownHook = new Thread(this::destroyNow, "legacy-kafka-kill-" + process.pid());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        Thread pump = new Thread(this::pumpOutput, "legacy-kafka-output-" + process.pid());
        pump.setDaemon(true);
        pump.start();
    }

    /** Launches {@code java -cp <classpath> <mainSource> <args...>} with the output in {@code logFile}. */
    static ChildBroker launch(List<String> jvmOptions, String classpath, Path mainSource, Path logFile, String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new java.util.ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath);
        command.add(mainSource.toString());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            log.debug("Started legacy Kafka child JVM pid {}", process.pid());
            return new ChildBroker(process, logFile);
        } catch (IOException e) {
            throw new KafkaException("Cannot start a child JVM with " + java, e);
        }
    }

    /**
     * Waits until the child reports that its broker started; throws with the end of its output when
     * it fails, exits or does not report within the timeout.
     */
    String awaitReady(Duration timeout) {
        try {
            return readiness.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while waiting for the legacy broker", e);
        } catch (ExecutionException e) {
            throw new KafkaException(e.getCause().getMessage() + "; last output:\n" + tail(), e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaException("Legacy broker (pid " + process.pid() + ") not ready after " + timeout
                    + "; last output:\n" + tail());
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /**
     * Closes the child's stdin (it then stops its broker and exits), waits up to {@code grace} and
     * kills it if it is still running.
     */
    void stop(Duration grace) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            log.debug("Closing the stdin of pid {} failed: {}", process.pid(), e.toString());
        }
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Legacy broker pid {} did not stop within {}; killing it", process.pid(), grace);
                destroyNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            destroyNow();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook runs anyway and finds the process gone
        }
    }

    private void destroyNow() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void pumpOutput() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(Files.newBufferedWriter(logFile, StandardCharsets.UTF_8), true)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.println(line);
                remember(line);
                if (line.startsWith(READY)) {
                    readiness.complete(line.substring(READY.length()).trim());
                } else if (line.startsWith(FAILED)) {
                    readiness.completeExceptionally(new KafkaException("Legacy broker failed to start: "
                            + line.substring(FAILED.length()).trim()));
                }
            }
        } catch (IOException e) {
            log.debug("Output of legacy broker pid {} ended: {}", process.pid(), e.toString());
        }
        readiness.completeExceptionally(new KafkaException("Legacy broker child JVM (pid " + process.pid()
                + ") exited" + exitCode() + " before it was ready"));
    }

    private String exitCode() {
        try {
            return process.waitFor(2, TimeUnit.SECONDS) ? " with status " + process.exitValue() : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private synchronized void remember(String line) {
        tail.addLast(line);
        if (tail.size() > TAIL_LINES) {
            tail.removeFirst();
        }
    }

    private synchronized String tail() {
        return String.join("\n", tail);
    }
}
