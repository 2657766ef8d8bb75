package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.core.Json;
import io.trainplane.spec.InvalidSpecException;
import io.trainplane.spec.RunSpecs;
import org.junit.jupiter.api.Test;

/** StartRun resolves where the outputs go, and refuses a place the run's pods may not write. */
class StartRunOutputTest {
    @Test
    void theDefaultIsTheArtifactsBucketUnderTheRunAndTheRecordSaysSo() {
        try (StartedRun run = new StartedRun("out-default")) {
            String expected = "s3://" + run.settings.artifactsBucket() + "/runs/tp-out-default/";
            assertThat(run.settings.artifactsBucket()).isNotEmpty();
            assertThat(run.state.path("spec").path("output").path("s3Uri").asText())
                    .isEqualTo(expected);
            assertThat(Json.read(run.record().specJson())
                            .path("output")
                            .path("s3Uri")
                            .asText())
                    .isEqualTo(expected);
            assertThat(RunContext.from(run.state).spec().output().bucket()).isEqualTo(run.settings.artifactsBucket());
            assertThat(RunContext.from(run.state).spec().output().prefix()).isEqualTo("runs/tp-out-default/");
        }
    }

    @Test
    void aPrefixUnderTheRunsOwnIsKept() {
        try (StartedRun run = new StartedRun("out-prefix", spec -> {
            spec.putObject("output").put("s3Uri", "s3://trainplane-artifactsbucket/runs/tp-out-prefix/final/");
            return spec;
        })) {
            assertThat(run.state.path("spec").path("output").path("s3Uri").asText())
                    .isEqualTo("s3://trainplane-artifactsbucket/runs/tp-out-prefix/final/");
        }
    }

    /** Another run's prefix is what the run's pods may not write (RunOutputsRole confines them to their namespace's). */
    @Test
    void anotherRunsPrefixIsRefused() {
        assertThatThrownBy(() -> new StartedRun("out-theirs", spec -> {
                    spec.putObject("output").put("s3Uri", "s3://trainplane-artifactsbucket/runs/tp-out-victim/");
                    return spec;
                }))
                .isInstanceOfSatisfying(
                        InvalidSpecException.class,
                        e -> assertThat(e.problems()).singleElement().satisfies(p -> {
                            assertThat(p.pointer()).isEqualTo("/output/s3Uri");
                            assertThat(p.message()).contains("only the run's own prefix", "runs/tp-out-theirs/");
                        }));
    }

    @Test
    void anotherBucketIsRefusedNamingTheFieldAndTheFixAndNoRunIsRecorded() {
        try (StartedRun probe = new StartedRun("out-probe")) {
            assertThatThrownBy(() -> new StartedRun("out-other", spec -> {
                        spec.putObject("output").put("s3Uri", "s3://my-models/trainplane/");
                        return spec;
                    }))
                    .isInstanceOfSatisfying(
                            InvalidSpecException.class,
                            e -> assertThat(e.problems()).singleElement().satisfies(p -> {
                                assertThat(p.pointer()).isEqualTo("/output/s3Uri");
                                assertThat(p.message()).contains("s3://my-models/trainplane/", "RunOutputsRole");
                                assertThat(p.hint()).contains("leave output.s3Uri out", "runs/tp-out-other/");
                            }));
        }
    }

    @Test
    void aDirectoryOfCodeThatTheCliDidNotPackIsRefusedBeforeAnythingIsCreated() {
        assertThatThrownBy(() -> new StartedRun("code-unpacked", spec -> {
                    spec.putObject("workload")
                            .put("code", "./src")
                            .putObject("commands")
                            .putObject("train")
                            .putArray("args")
                            .add("python")
                            .add("train.py");
                    return spec;
                }))
                .isInstanceOfSatisfying(
                        InvalidSpecException.class,
                        e -> assertThat(e.problems()).singleElement().satisfies(p -> {
                            assertThat(p.pointer()).isEqualTo("/workload/code");
                            assertThat(p.message()).contains("'./src' is a local directory");
                            assertThat(p.hint()).contains("trainplane start", "s3://");
                        }));
    }

    @Test
    void aMalformedUriIsRefusedByTheSchema() {
        assertThatThrownBy(
                        () -> RunSpecs.normalize(
                                "{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}, \"output\": {\"s3Uri\": \"s3://Bad_Bucket/x\"}}"))
                .isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("/output/s3Uri");
    }
}
