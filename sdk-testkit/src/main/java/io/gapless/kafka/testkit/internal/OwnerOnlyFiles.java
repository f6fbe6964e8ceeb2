package io.gapless.kafka.testkit.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;

/** Settings files for child JVMs: they may hold the cluster's passwords and keys, so only their owner reads them. */
final class OwnerOnlyFiles {
    private OwnerOnlyFiles() {
    }

    static void store(Path file, Properties properties, String comment) {
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(file);
            }
            try (OutputStream out = Files.newOutputStream(file)) {
                properties.store(out, comment);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }
}
