package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Features the schema accepts but this version refuses, with what to use instead. */
class CapabilitiesTest {
    private static final String EXISTING = "\"cluster\": {\"mode\": \"existing\", \"name\": \"ml-training\"}";
    private static final String CREATE = "\"cluster\": {\"mode\": \"create\", \"nodeGroup\": "
            + "{\"instanceType\": \"g5.12xlarge\", \"nodes\": 2, \"gpusPerNode\": 4}}";


    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
            "training": {"launcher": "pytorchjob"}                                     | /training/launcher  | the PyTorchJob launcher | "indexed-job"
            """)
    void featureNotBuiltYetIsRefusedWithWhatToUseInstead(String fragment, String pointer, String feature, String instead) {
        String json = "{" + EXISTING + ", " + fragment.formatted("ab".repeat(32)) + "}";

        List<SpecProblem> problems = RunSpecs.problems(json);

        assertThat(problems).as(problems.toString()).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo(pointer);
            assertThat(p.message()).contains(feature).endsWith("is not available yet in this version of Trainplane");
            assertThat(p.hint()).contains(instead);
        });
    }

    @Test
    void refusalsAreReportedTogetherWithSchemaErrors() {
        List<SpecProblem> problems = RunSpecs.problems("{" + CREATE + ", \"volume\": {\"type\": \"efs\"},"
                + " \"training\": {\"launcher\": \"pytorchjob\", \"workers\": 100}}");

        assertThat(problems).extracting(SpecProblem::pointer)
                .containsExactly("/training/launcher", "/training/workers");
    }

    @Test
    void refusalsAreReportedTogetherWithRuleViolations() {
        List<SpecProblem> problems = RunSpecs.problems("{" + EXISTING + ", \"training\": {\"launcher\": \"pytorchjob\","
                + " \"gpusPerWorker\": 1, \"procsPerWorker\": 2}}");

        assertThat(problems).extracting(SpecProblem::pointer).containsExactly("/training/launcher", "/training/procsPerWorker");
    }

    @Test
    void aSpecRecordIsCheckedToo() {
        RunSpec supported = RunSpecs.parse("{" + EXISTING + "}");
        RunSpec created = new RunSpec("r1",
                new ClusterSpec(ClusterMode.CREATE, null, "1.31",
                        new NodeGroupSpec("m5.xlarge", 1, 0, CapacityType.ON_DEMAND, null, false)),
                new VolumeSpec(VolumeType.EFS, null), supported.data(), supported.training(),
                supported.evaluation(), supported.cleanup(), 12);
        RunSpec unsupported = new RunSpec("r1", supported.cluster(), supported.volume(),
                supported.data(), pytorchjob(supported.training()),
                supported.evaluation(), supported.cleanup(), 12);

        assertThat(Capabilities.unsupported(supported)).isEmpty();
        assertThat(Capabilities.unsupported(created)).isEmpty();
        assertThat(Capabilities.unsupported(unsupported)).extracting(SpecProblem::pointer).containsExactly("/training/launcher");
    }

    private static TrainingSpec pytorchjob(TrainingSpec t) {
        return new TrainingSpec(Launcher.PYTORCHJOB, t.image(), t.workers(), t.procsPerWorker(), t.epochs(), t.batchSize(),
                t.learningRate(), t.cpu(), t.memory(), t.gpusPerWorker(), t.maxRestarts(), t.timeoutMinutes());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            "data": {"source": "url", "url": "https://example.com/d.tgz", "sha256": "%s"}
            "data": {"source": "s3", "s3Uri": "s3://my-bucket/data"}
            "data": {"source": "s3", "s3Uri": "s3://my-bucket/data", "sha256": "%s"}
            """)
    void everyDataSourceIsAvailable(String fragment) {
        assertThat(RunSpecs.problems("{" + EXISTING + ", " + fragment.formatted("ab".repeat(32)) + "}")).isEmpty();
    }
}
