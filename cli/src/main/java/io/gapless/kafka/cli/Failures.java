package io.gapless.kafka.cli;

/** How a failure reads on stderr: its message, and its cause's where that adds something. */
final class Failures {
    private Failures() {
    }

    static String describe(Throwable e) {
        String message = message(e);
        Throwable cause = e.getCause();
        if (cause != null && cause != e) {
            String why = message(cause);
            if (!message.contains(why)) {
                message = message + ": " + why;
            }
        }
        return message;
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
