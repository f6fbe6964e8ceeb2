package io.gapless.kafka.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** A command that talks to a cluster: the connection options every command takes, and where it prints. */
abstract class ClusterCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    ConnectionOptions connection;

    /** Standard output, as picocli was given it. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }
}
