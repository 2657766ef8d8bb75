package io.trainplane.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.trainplane.workflow.Pipeline;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Makefile as `sam build` runs it (aws-lambda-builders' CustomMakeWorkflow): for each function,
 * the source tree copied to a scratch directory, then {@code make --makefile <checkout>/Makefile
 * build-<LogicalId>} there with ARTIFACTS_DIR set. The jars, fresh after the package phase, are
 * not built again for any function, and each function's artifact holds its handler; a source newer
 * than a jar makes it stale. Runs in the pom's lambda-artifacts execution, after packaging.
 */
class SamMakeBuildTest {
    /** What the copy leaves out: what CustomMakeWorkflow excludes, and target/ (SAM copies it, the Makefile never reads the copy's). */
    static final Set<String> NOT_COPIED = Set.of(".git", ".aws-sam", "target", "node_modules");

    @TempDir
    Path scratch;

    static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                if (!dir.equals(from) && NOT_COPIED.contains(dir.getFileName().toString())) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(to.resolve(from.relativize(dir)));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file)), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }

            /** As a copy that keeps times does (SAM's copies the files'): a folder is as old as the original. */
            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failed) throws IOException {
                Files.setLastModifiedTime(to.resolve(from.relativize(dir)), Files.getLastModifiedTime(dir));
                return FileVisitResult.CONTINUE;
            }
        });
    }

    record Ran(int exit, String output) {}

    static Ran run(Path dir, List<String> command, String artifacts) throws IOException, InterruptedException {
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        if (artifacts != null) {
            builder.environment().put("ARTIFACTS_DIR", artifacts);
        }
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES))
                .as(String.join(" ", command))
                .isTrue();
        return new Ran(process.exitValue(), output);
    }

    @Test
    void eachFunctionIsBuiltFromItsOwnCopyWithoutBuildingTheFreshJarsAgain() throws Exception {
        assumeThat(System.getenv("TRAINPLANE_ARTIFACT_CHECK"))
                .as("runs in the pom's lambda-artifacts execution, after the jars are built")
                .isNotNull();
        Path checkout = Path.of("").toAbsolutePath();
        for (String function : List.of("StartRun", "CheckCluster", "Teardown")) {
            Path copy = Files.createDirectories(scratch.resolve("build-" + function));
            copyTree(checkout, copy);
            Path artifacts = Files.createDirectories(scratch.resolve("artifacts-" + function));

            Ran make = run(
                    copy,
                    List.of(
                            "make",
                            "--makefile",
                            checkout.resolve("Makefile").toString(),
                            "build-" + function + "Function"),
                    artifacts.toString());

            assertThat(make.exit()).as(make.output()).isZero();
            assertThat(make.output()).as("no Maven run: the jars are fresh").doesNotContain("building");
            assertThat(artifacts.resolve("io/trainplane/functions/" + function + ".class"))
                    .exists();
            boolean kubernetes =
                    Pipeline.function(function).artifact().jarName().contains("kubernetes");
            assertThat(Files.exists(artifacts.resolve("io/fabric8")))
                    .as(function)
                    .isEqualTo(kubernetes);
        }
    }

    @Test
    void aSourceNewerThanTheJarsMakesThemStale() throws Exception {
        assumeThat(System.getenv("TRAINPLANE_ARTIFACT_CHECK"))
                .as("runs in the pom's lambda-artifacts execution, after the jars are built")
                .isNotNull();
        Path checkout = Path.of("").toAbsolutePath();
        Path copy = Files.createDirectories(scratch.resolve("checkout"));
        copyTree(checkout, copy);
        String jar = "target/" + Pipeline.START_RUN.artifact().jarName();
        Files.createDirectories(copy.resolve("target"));
        Files.copy(checkout.resolve(jar), copy.resolve(jar), StandardCopyOption.COPY_ATTRIBUTES);
        List<String> check = List.of("scripts/build-jars.sh", "--check", jar);

        assertThat(run(copy, check, null).exit()).isZero();
        Path source = copy.resolve("src/main/java/io/trainplane/workflow/Pipeline.java");
        Files.setLastModifiedTime(
                source,
                FileTime.fromMillis(Files.getLastModifiedTime(copy.resolve(jar)).toMillis() + 60_000));
        Ran stale = run(copy, check, null);
        assertThat(stale.exit()).isEqualTo(1);
        assertThat(stale.output()).contains("stale: " + jar);
    }
}
