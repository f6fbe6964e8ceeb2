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
package io.gapless.kafka.cli;

import org.apache.kafka.common.utils.internals.AppInfoParser;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * {@code gapless}: the SDK's admin tool. Every command is a thin front over a library API
 * ({@code GroupBaselines}, {@code LedgerInspection}, {@code ShareGroupSettings}, the clients' own
 * path decisions), connects like Kafka's tools ({@code --bootstrap-server},
 * {@code --command-config}) and exits as they do: 0 on success, 1 with the reason on stderr
 * otherwise (a usage error also prints the usage).
 *
 * @since 0.1.0
 */
@Command(name = "gapless", mixinStandardHelpOptions = true, versionProvider = GaplessCli.Version.class,
        description = "Inspect and administer the state the Gapless SDK keeps in a Kafka cluster.",
        subcommands = {BaselineCommand.class, LedgerCommand.class, ProbeCommand.class, ShareSettingsCommand.class,
            CommandLine.HelpCommand.class})
public final class GaplessCli implements Runnable {
    @Spec
    CommandSpec spec;

    /** Runs the tool and exits the JVM with its exit code. */
    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8), args));
    }

    /**
     * Runs the tool on {@code args}, writing to {@code out} and {@code err}.
     *
     * @return the exit code: 0 on success, 1 on a usage error or a failure
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new GaplessCli()).setOut(out).setErr(err);
        cli.setParameterExceptionHandler((e, a) -> {
            // As Kafka's CommandLineUtils.printUsageAndExit: the message, the usage, exit code 1.
            err.println(e.getMessage());
            e.getCommandLine().usage(err);
            err.flush();
            return 1;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            err.println("Error: " + Failures.describe(e));
            err.flush();
            return 1;
        });
        int code = cli.execute(args);
        out.flush();
        return code;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    /** The tool's version and the kafka-clients it carries. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = GaplessCli.class.getResourceAsStream("/gapless-cli.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            return new String[] {"gapless " + p.getProperty("version", "unknown") + " (kafka-clients " + AppInfoParser.getVersion() + ")"};
        }
    }
}
