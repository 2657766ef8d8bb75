package io.trainplane.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The failure names are one closed type: a TerminalException takes a {@link FailureReason}, so the
 * compiler sees that every reason thrown is a constant; these tests see that every constant is
 * raised or written somewhere, that its wire form is its name, and what the advice says.
 */
class FailureReasonTest {
    @Test
    void everyReasonIsRaisedOrWrittenSomewhere() throws IOException {
        String sources;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            sources = files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> !f.endsWith("FailureReason.java"))
                    .map(FailureReasonTest::read)
                    .collect(Collectors.joining("\n"));
        }
        for (FailureReason reason : FailureReason.values()) {
            assertThat(Pattern.compile("FailureReason\\." + reason.name() + "\\b")
                            .matcher(sources)
                            .find())
                    .as("FailureReason.%s is raised or written somewhere", reason)
                    .isTrue();
        }
    }

    @Test
    void theWireFormIsTheConstantsName() {
        TerminalException e = new TerminalException(FailureReason.ClusterNotFound, "no cluster tp-x");
        assertThat(e.getMessage()).isEqualTo("ClusterNotFound: no cluster tp-x");
        assertThat(e.reason().name()).isEqualTo("ClusterNotFound");
        for (FailureReason reason : FailureReason.values()) {
            assertThat(FailureReason.of(reason.name())).hasValue(reason);
        }
        assertThat(FailureReason.of("States.TaskFailed")).isEmpty();
        assertThat(FailureReason.of(null)).isEmpty();
    }

    @Test
    void theQualityGateSaysWhatToChange() {
        assertThat(FailureReason.adviceFor("QualityGate")).hasValueSatisfying(advice -> assertThat(advice)
                .contains(
                        "workload.hyperparameters",
                        "training.epochs",
                        "evaluation.minAccuracy",
                        "training.resumeFrom"));
        assertThat(FailureReason.ImagePullFailed.advice())
                .as("its message carries the fix")
                .isEmpty();
        assertThat(FailureReason.adviceFor(null)).isEmpty();
        assertThat(FailureReason.adviceFor("Lambda.Unknown")).isEmpty();
    }

    @Test
    void aJobsFailureIsAdvisedLikeTheOthers() {
        assertThat(Arrays.stream(FailureReason.values()).filter(r -> r.advice().isPresent()))
                .contains(
                        FailureReason.TrainingFailed,
                        FailureReason.DataFailed,
                        FailureReason.EvaluationFailed,
                        FailureReason.ClusterNotFound,
                        FailureReason.BudgetReached,
                        FailureReason.Orphaned);
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
