package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every feature the schema accepts is built: nothing is refused as "not available yet". */
class CapabilitiesTest {
    private static final String EXISTING = "\"cluster\": {\"mode\": \"existing\", \"name\": \"ml-training\"}";
    private static final String CREATE = "\"cluster\": {\"mode\": \"create\", \"nodeGroup\": "
            + "{\"instanceType\": \"g5.12xlarge\", \"nodes\": 2, \"gpusPerNode\": 4}}";

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            "data": {"source": "url", "url": "https://example.com/d.tgz", "sha256": "%s"}
            "data": {"source": "s3", "s3Uri": "s3://my-bucket/data"}
            "data": {"source": "s3", "s3Uri": "s3://my-bucket/data", "sha256": "%s"}
            "training": {"launcher": "pytorchjob"}
            "training": {"launcher": "pytorchjob", "workers": 4, "gpusPerWorker": 1}
            """)
    void everyDataSourceAndLauncherIsAvailable(String fragment) {
        assertThat(RunSpecs.problems("{" + EXISTING + ", " + fragment.formatted("ab".repeat(32)) + "}"))
                .isEmpty();
    }

    @Test
    void schemaErrorsStillCome() {
        assertThat(RunSpecs.problems("{" + CREATE + ", \"volume\": {\"type\": \"efs\"},"
                        + " \"training\": {\"launcher\": \"pytorchjob\", \"workers\": 100}}"))
                .extracting(SpecProblem::pointer)
                .containsExactly("/training/workers");
    }

    @Test
    void aSpecRecordIsCheckedToo() {
        RunSpec supported =
                RunSpecs.parse("{" + EXISTING + ", \"data\": {\"source\": \"s3\", \"s3Uri\": \"s3://my-bucket/data\"},"
                        + " \"training\": {\"launcher\": \"pytorchjob\"}}");

        assertThat(Capabilities.unsupported(supported)).isEmpty();
    }
}
