package io.gapless.kafka.e2e.share;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** One {@link ShareCtpWorker} child JVM: its process, its EVENT lines, its log file. */
final class WorkerProcess {
    final int slot;
    final Process process;
    final Queue<String> events = new ConcurrentLinkedQueue<>();
    private final Thread reader;

    private WorkerProcess(int slot, Process process, Path log) {
        this.slot = slot;
        this.process = process;
        this.reader = new Thread(() -> pump(log), "worker-" + slot + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    static WorkerProcess start(int slot, List<String> args, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        // Small, quickly started JVMs: the suite runs on 2 cores next to the broker.
        cmd.add("-Xmx96m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Xshare:auto");
        cmd.add(ShareCtpWorker.class.getName());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Files.writeString(log, "=== start " + args + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return new WorkerProcess(slot, pb.start(), log);
    }

    private void pump(Path log) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("EVENT ")) {
                    events.add(line.substring(6));
                }
                Files.writeString(log, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        } catch (IOException e) {
            // The process died; its output ends here.
        }
    }

    /** Sends a command line to the worker's stdin: "go" releases a zombie's stall, "clean" stops faults. */
    void command(String line) {
        try {
            OutputStream os = process.getOutputStream();
            PrintWriter w = new PrintWriter(os, true, StandardCharsets.UTF_8);
            w.println(line);
        } catch (RuntimeException e) {
            // Already gone.
        }
    }

    /** SIGSTOP / SIGCONT through the kill command (the JDK has no API for them). */
    void signal(String sig) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + sig, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    void kill() {
        process.destroyForcibly();
    }

    boolean alive() {
        return process.isAlive();
    }

    void awaitExit() throws InterruptedException {
        process.waitFor();
        reader.join(5000);
    }
}
