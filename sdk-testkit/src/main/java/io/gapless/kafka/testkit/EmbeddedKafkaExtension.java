package io.gapless.kafka.testkit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension behind {@link EmbeddedKafkaTest}: resolves {@link EmbeddedKafka} parameters to
 * one cluster per test JVM, kept in the root extension store so that JUnit closes it at the end.
 */
public class EmbeddedKafkaExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(EmbeddedKafkaExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == EmbeddedKafka.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return shared(extensionContext);
    }

    /** The cluster shared by every test of this JVM, started on first call. */
    public static EmbeddedKafka shared(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent("cluster", key -> EmbeddedKafka.forTests(), EmbeddedKafka.class);
    }
}
