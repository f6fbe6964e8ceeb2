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
package io.gapless.kafka.testkit.internal;

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
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One child JVM running a broker main: starts it, copies its output into a log file, waits for its
 * readiness line, stops, kills, pauses and resumes it. The child stops by itself when this JVM
 * dies, because its stdin (a pipe from this process) then reaches end of file; a shutdown hook
 * kills it when this JVM exits normally.
 *
 * <p>Protocol: the child prints {@code <marker>-READY <detail>} once its broker serves, or
 * {@code <marker>-FAILED <reason>} before it exits when it cannot start.
 */
public final class ChildJvm {
    private static final Logger log = LoggerFactory.getLogger(ChildJvm.class);
    private static final int TAIL_LINES = 40;

    private final String name;
    private final String readyMarker;
    private final String failedMarker;
    private final Process process;
    private final Path logFile;
    private final CompletableFuture<String> readiness = new CompletableFuture<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private final Thread shutdownHook;

    private ChildJvm(String name, String marker, Process process, Path logFile) {
        this.name = name;
        this.readyMarker = marker + "-READY";
        this.failedMarker = marker + "-FAILED";
        this.process = process;
        this.logFile = logFile;
        this.shutdownHook = new Thread(this::destroyNow, "gapless-child-kill-" + process.pid());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        Thread pump = new Thread(this::pumpOutput, "gapless-child-output-" + process.pid());
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Launches {@code java <jvmOptions> -cp <classpath> <mainAndArgs...>} with its output in
     * {@code logFile}; {@code name} (for example "node 1") and {@code marker} identify it.
     */
    public static ChildJvm launch(String name, String marker, List<String> jvmOptions, String classpath,
                                  List<String> mainAndArgs, Path logFile) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath);
        command.addAll(mainAndArgs);
        try {
            Files.createDirectories(logFile.getParent());
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            log.debug("Started {} in child JVM pid {}", name, process.pid());
            return new ChildJvm(name, marker, process, logFile);
        } catch (IOException e) {
            throw new KafkaException("Cannot start a child JVM for " + name + " with " + java, e);
        }
    }

    /**
     * Waits until the child reports that its broker started and returns the detail of its
     * readiness line; throws with the end of its output when it fails, exits or does not report
     * within the timeout.
     */
    public String awaitReady(Duration timeout) {
        try {
            return readiness.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while waiting for " + name, e);
        } catch (ExecutionException e) {
            throw new KafkaException(e.getCause().getMessage() + "; last output:\n" + tail(), e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaException(name + " (pid " + process.pid() + ") not ready after " + timeout
                    + "; last output:\n" + tail());
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** Where the child's stdout and stderr are copied. */
    public Path logFile() {
        return logFile;
    }

    /**
     * Closes the child's stdin (it then stops its broker and exits), waits up to {@code grace} and
     * kills it if it is still running.
     */
    public void stop(Duration grace) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            log.debug("Closing the stdin of pid {} failed: {}", process.pid(), e.toString());
        }
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("{} (pid {}) did not stop within {}; killing it", name, process.pid(), grace);
                destroyNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            destroyNow();
        }
        removeHook();
    }

    /** SIGKILL (on Unix; {@link Process#destroyForcibly()}), then waits until the process is gone. */
    public void kill() {
        destroyNow();
        removeHook();
    }

    /** Sends a signal by name ({@code STOP}, {@code CONT}) with the {@code kill} command. */
    public void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new KafkaException("kill -" + signal + " " + process.pid() + " failed: " + output);
            }
        } catch (IOException e) {
            throw new KafkaException("Cannot run 'kill -" + signal + "' (needs a Unix 'kill' command)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while signalling " + name, e);
        }
    }

    private void removeHook() {
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
                if (line.startsWith(readyMarker)) {
                    readiness.complete(line.substring(readyMarker.length()).trim());
                } else if (line.startsWith(failedMarker)) {
                    readiness.completeExceptionally(new KafkaException(name + " failed to start: "
                            + line.substring(failedMarker.length()).trim()));
                }
            }
        } catch (IOException e) {
            log.debug("Output of {} (pid {}) ended: {}", name, process.pid(), e.toString());
        }
        readiness.completeExceptionally(new KafkaException(name + " child JVM (pid " + process.pid()
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
