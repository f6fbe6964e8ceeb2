package io.gapless.kafka.testkit.internal;

import io.gapless.kafka.testkit.EmbeddedKafkaFatalException;
import org.apache.kafka.common.utils.internals.Exit;

/** Turns the broker's halt/exit calls into exceptions: a fatal fault must not kill the test JVM. */
public final class FatalExitGuard {
    private static volatile boolean installed;

    private FatalExitGuard() {
    }

    public static synchronized void install() {
        if (installed) {
            return;
        }
        Exit.setHaltProcedure((status, message) -> {
            throw new EmbeddedKafkaFatalException(status, message);
        });
        Exit.setExitProcedure((status, message) -> {
            throw new EmbeddedKafkaFatalException(status, message);
        });
        installed = true;
    }
}
