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

/** One worker child JVM ({@link ShareCtpWorker} unless told otherwise): its process, its EVENT lines, its log file. */
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

    /** Part of the WARN the SDK logs for records the delivery limit archived while it held them. */
    static final String ARCHIVED_WARNING = "with no output committed for them";

    private static final Path CDS_DIR = Path.of("target", "share-worker-cds").toAbsolutePath();
    private static final Path ARCHIVE = CDS_DIR.resolve("classes.jsa");
    private static volatile boolean archiveTried;
    private static volatile String classPath = System.getProperty("java.class.path");

    /**
     * Writes a shared class archive (AppCDS) of a worker's classes once, by running one worker
     * that exits normally: later workers start faster (the suite starts dozens of them).
     */
    static synchronized void prepareArchive(List<String> warmupArgs) throws IOException, InterruptedException {
        if (archiveTried) {
            return;
        }
        archiveTried = true;
        // The JVM archives classes from jars only: pack the class directories (this module's and
        // the reactor's target/classes) into jars first.
        Files.createDirectories(CDS_DIR);
        Files.deleteIfExists(ARCHIVE);
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                Path jar = CDS_DIR.resolve("dir-" + (n++) + ".jar");
                packDirectory(path, jar);
                entries.add(jar.toString());
            } else {
                entries.add(entry);
            }
        }
        classPath = String.join(java.io.File.pathSeparator, entries);
        List<String> cmd = javaCommand(List.of("-XX:ArchiveClassesAtExit=" + ARCHIVE), ShareCtpWorker.class);
        cmd.addAll(warmupArgs);
        cmd.add("warmup=true");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
    }

    private static void packDirectory(Path dir, Path jar) throws IOException {
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar));
             java.util.stream.Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                out.putNextEntry(new java.util.jar.JarEntry(dir.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    private static List<String> javaCommand(List<String> jvmOptions, Class<?> main) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(classPath);
        // Small, quickly started JVMs: the suite runs on 2 cores next to the broker.
        cmd.add("-Xmx96m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Xshare:auto");
        cmd.addAll(jvmOptions);
        cmd.add(main.getName());
        return cmd;
    }

    static WorkerProcess start(int slot, List<String> args, Path log) throws IOException {
        return start(ShareCtpWorker.class, slot, args, log);
    }

    /** Starts {@code main} (a class of this module with a {@code main(String[])}) with {@code key=value} arguments. */
    static WorkerProcess start(Class<?> main, int slot, List<String> args, Path log) throws IOException {
        List<String> cmd = javaCommand(Files.exists(ARCHIVE) ? List.of("-XX:SharedArchiveFile=" + ARCHIVE) : List.of(), main);
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
                } else if (line.contains(ARCHIVED_WARNING)) {
                    // The SDK's WARN is written at once; the metric a worker reports at its next poll dies with a halted worker.
                    events.add("ARCHIVED-WARN " + line);
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
