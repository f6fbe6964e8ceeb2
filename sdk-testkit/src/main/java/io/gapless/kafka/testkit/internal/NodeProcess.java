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
