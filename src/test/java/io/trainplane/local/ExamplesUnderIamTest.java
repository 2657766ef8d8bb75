package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.local.iam.AuditEntry;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example runs under template.yaml's IAM policies without a single denial and leaves
 * nothing behind (its audit log is archived for the iam-simulate replay). An example that ships a
 * directory of code needs the CLI, which packs it, and the process runtime, which runs it: it is run
 * that way, under the same IAM, by its own test (CharLmRunTest).
 */
class ExamplesUnderIamTest {
    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("examples"))) {
            return files
                    .filter(f -> f.toString().endsWith(".json"))
                    .filter(f -> !shipsADirectory(f))
                    .sorted()
                    .toList()
                    .stream();
        }
    }

    static boolean shipsADirectory(Path example) {
        try {
            String code = io.trainplane.core.Json.read(Files.readString(example))
                    .at("/workload/code")
                    .asText("builtin");
            return io.trainplane.spec.WorkloadCode.parse(code) instanceof io.trainplane.spec.WorkloadCode.Directory;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void runsWithoutADenialAndLeavesNothing(Path example) throws IOException {
        var spec = RunSpecs.normalize(Files.readString(example));
        // The same run CreatedObjectsSchemaTest judges the objects of: made once (ExampleRuns).
        ExampleRuns.Outcome run = ExampleRuns.of(spec);
        RunReport report = run.report();

        assertThat(run.denials())
                .extracting(AuditEntry::action)
                .as("denied calls of %s", example)
                .isEmpty();
        assertThat(run.audit()).as("calls judged").isNotEmpty();
        assertThat(report.resources().remaining()).isEmpty();
        assertThat(report.status())
                .as("%s: %s %s", example, report.error(), report.cause())
                .isEqualTo("SUCCEEDED");
    }
}
