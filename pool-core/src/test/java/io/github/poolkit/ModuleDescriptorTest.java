package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** The jar is a module that exports the API package only, so users cannot reach the machinery in {@code internal}. */
class ModuleDescriptorTest {

    /** The compiled descriptor beside the API classes (the tests run on the class path, outside the module). */
    private static Path descriptorFile() {
        try {
            return Path.of(WorkerPool.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .resolve("module-info.class");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void exportsOnlyTheApiPackageAndNeedsNothingButJavaBase() throws IOException {
        ModuleDescriptor descriptor;
        try (InputStream in = Files.newInputStream(descriptorFile())) {
            descriptor = ModuleDescriptor.read(in);
        }
        assertThat(descriptor.name()).isEqualTo("io.github.poolkit");
        assertThat(descriptor.exports()).extracting(ModuleDescriptor.Exports::source)
                .containsExactly("io.github.poolkit");
        assertThat(descriptor.exports()).allMatch(e -> !e.isQualified());
        assertThat(descriptor.opens()).isEmpty();
        Set<String> requires = descriptor.requires().stream().map(ModuleDescriptor.Requires::name)
                .collect(Collectors.toSet());
        assertThat(requires).containsExactly("java.base");
    }

    @Test
    void theDescriptorIsReadableByTheJava17JarTool() throws IOException {
        try (InputStream in = Files.newInputStream(descriptorFile())) {
            byte[] header = in.readNBytes(8);
            int major = ((header[6] & 0xff) << 8) | (header[7] & 0xff);
            assertThat(major).as("class-file major version of module-info").isLessThanOrEqualTo(61);
        }
    }
}
