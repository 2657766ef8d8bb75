package io.trainplane.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class FailureAdviceTest {
    @Test
    void everyFailureWithAdviceIsOneTheCodeRaises() throws IOException {
        String sources;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            sources = files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> !f.endsWith("FailureAdvice.java"))
                    .map(FailureAdviceTest::read)
                    .collect(Collectors.joining("\n"));
        }
        for (String error : FailureAdvice.errors()) {
            // A Job's failure is named after what the Job does: "data" → DataFailed (JobWatch).
            String raised = error.endsWith("Failed") && !error.equals("ExecutionFailed")
                    ? "\""
                            + error.substring(0, error.length() - "Failed".length())
                                    .toLowerCase() + "\""
                    : "\"" + error + "\"";
            // Or by its own name (SecretFetchFailed: JobWatch names it whatever the Job).
            assertThat(sources)
                    .as("the failure %s is raised somewhere as %s", error, raised)
                    .satisfiesAnyOf(s -> assertThat(s).contains(raised), s -> assertThat(s)
                            .contains("\"" + error + "\""));
        }
    }

    @Test
    void theQualityGateSaysWhatToChange() {
        assertThat(FailureAdvice.of("QualityGate")).hasValueSatisfying(advice -> assertThat(advice)
                .contains(
                        "workload.hyperparameters",
                        "training.epochs",
                        "evaluation.minAccuracy",
                        "training.resumeFrom"));
        assertThat(FailureAdvice.of("ImagePullFailed"))
                .as("its message carries the fix")
                .isEmpty();
        assertThat(FailureAdvice.of(null)).isEmpty();
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
