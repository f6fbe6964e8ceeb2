package io.gapless.kafka.testkit.internal;

import java.util.OptionalLong;

/** How one node of an embedded cluster runs: inside this JVM or in a child JVM. */
public interface NodeProcess {

    /** Starts the node on its configured ports and data directory; returns once its server started. */
    void start();

    /** Stops the node gracefully (controlled shutdown) and waits until it is down. */
    void stop();

    /** Ends the node abruptly (SIGKILL); only child JVMs can do that. */
    void kill();

    /** Freezes the node (SIGSTOP); only child JVMs can do that. */
    void pause();

    /** Lets a paused node run on (SIGCONT). */
    void resume();

    /** Whether the node runs (a paused node runs). */
    boolean isRunning();

    /** The process id of a child JVM; empty inside this JVM. */
    OptionalLong pid();

    /** Ends the node for good when the cluster closes, as fast as its kind allows; never throws. */
    void close();
}
