package io.gapless.kafka.testkit;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a JUnit 5 test class that needs a Kafka cluster. Test constructors, lifecycle methods and
 * test methods can declare an {@link EmbeddedKafka} parameter; every class in the same test JVM
 * shares one cluster (started on first use, stopped when the JVM's test run ends). When
 * {@value EmbeddedKafka#BOOTSTRAP_ENV} is set the tests use that external cluster instead.
 *
 * @since 0.1.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EmbeddedKafkaExtension.class)
public @interface EmbeddedKafkaTest {
}
