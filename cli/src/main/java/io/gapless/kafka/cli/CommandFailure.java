package io.gapless.kafka.cli;

/** A command could not do what was asked (unknown group, nothing to forget, ...): exit code 1, the message on stderr. */
final class CommandFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CommandFailure(String message) {
        super(message);
    }
}
