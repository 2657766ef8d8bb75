package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first build of {@code ./trainplane} (scripts/build-jars.sh) prints one line of progress, not
 * Maven's or the JVM's warnings; a failed build shows what Maven said.
 */
class BuildScriptTest {
    @TempDir
    Path checkout;

    record Ran(int exit, String stderr) {}

    /** A checkout with the real scripts and a Maven wrapper that prints what a JDK 25 Maven prints, and records MAVEN_OPTS. */
    Ran build(boolean mavenFails) throws IOException, InterruptedException {
        Files.createDirectories(checkout.resolve("scripts"));
        for (String script : new String[] {"build-jars.sh", "java-home.sh"}) {
            Files.copy(Path.of("scripts", script), checkout.resolve("scripts").resolve(script));
        }
        Files.createDirectories(checkout.resolve("src/main"));
        Path mvnw = checkout.resolve("mvnw");
        Files.writeString(
                mvnw,
                "#!/bin/sh\n"
                        + "echo \"$MAVEN_OPTS\" > maven-opts\n"
                        + "echo 'WARNING: A terminally deprecated method in sun.misc.Unsafe has been called' >&2\n"
                        + "echo 'WARNING: sun.misc.Unsafe::objectFieldOffset will be removed in a future release' >&2\n"
                        + (mavenFails
                                ? "echo '[ERROR] COMPILATION ERROR: Main.java:[3,1] class expected'; exit 1\n"
                                : "mkdir -p target && touch target/trainplane.jar\n"),
                StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder builder = new ProcessBuilder("sh", "scripts/build-jars.sh", "target/trainplane.jar")
                .directory(checkout.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("MAVEN_OPTS");
        Process process = builder.start();
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Ran(process.exitValue(), stderr);
    }

    @Test
    void theFirstBuildPrintsOneLineAndAllowsWhatMavensLibrariesDo() throws Exception {
        Ran ran = build(false);
        assertThat(ran.exit()).as(ran.stderr()).isZero();
        assertThat(ran.stderr()).isEqualTo("building the CLI (first run, ~2 min)...\n");
        if (Runtime.version().feature() >= 24) {
            assertThat(Files.readString(checkout.resolve("maven-opts")))
                    .contains("--sun-misc-unsafe-memory-access=allow");
        }
    }

    @Test
    void aFailedBuildShowsWhatMavenSaidWithoutTheJvmsWarnings() throws Exception {
        Ran ran = build(true);
        assertThat(ran.exit()).isEqualTo(1);
        assertThat(ran.stderr())
                .contains("COMPILATION ERROR", "the build failed")
                .doesNotContain("sun.misc.Unsafe");
    }
}
