package io.gapless.kafka.core;

import org.apache.kafka.common.KafkaException;

/**
 * The group baseline that tells new partitions from pre-existing ones could not be read or
 * written (topic missing and not creatable, not authorized, wrong cleanup policy, timeout). No
 * offset was reset or committed on the way; the affected partitions stay unpositioned.
 *
 * @since 0.1.0
 */
public class BaselineUnavailableException extends KafkaException {
    private static final long serialVersionUID = 1L;

    public BaselineUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public BaselineUnavailableException(String message) {
        super(message);
    }
}
