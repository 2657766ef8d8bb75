package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** volume.type fsx-lustre: what the spec takes, its defaults, and each refused combination naming the field and the fix. */
class LustreRulesTest {
    static String spec(String volume) {
        return "{\"cluster\": {\"mode\": \"existing\", \"name\": \"ml-training\"}, \"volume\": " + volume + "}";
    }

    static List<SpecProblem> problems(String volume) {
        return RunSpecs.problems(spec(volume));
    }

    @Test
    void aBareFsxVolumeIsScratch2Of1200GiB() {
        VolumeSpec volume = RunSpecs.parse(spec("{\"type\": \"fsx-lustre\"}")).volume();
        assertThat(volume.type()).isEqualTo(VolumeType.FSX_LUSTRE);
        assertThat(volume.lustreDeploymentType()).isEqualTo(LustreDeploymentType.SCRATCH_2);
        assertThat(volume.lustreStorageCapacityGiB()).isEqualTo(1200);
        assertThat(volume.perUnitStorageThroughput()).isNull();
    }

    @Test
    void everyFieldSurvivesNormalization() {
        String json = spec("{\"type\": \"fsx-lustre\", \"deploymentType\": \"PERSISTENT_1\","
                + " \"perUnitStorageThroughput\": 100, \"storageCapacityGiB\": 4800,"
                + " \"s3ImportPath\": \"s3://data-bucket/in\", \"s3ExportPath\": \"s3://data-bucket/out\"}");
        assertThat(RunSpecs.problems(json)).isEmpty();
        RunSpec spec = RunSpecs.parse(json);
        assertThat(RunSpecs.parse(RunSpecs.normalize(json))).isEqualTo(spec);
        assertThat(spec.volume())
                .isEqualTo(new VolumeSpec(
                        VolumeType.FSX_LUSTRE,
                        null,
                        LustreDeploymentType.PERSISTENT_1,
                        100,
                        4800,
                        "s3://data-bucket/in",
                        "s3://data-bucket/out"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // AWS's capacities: 1200, 2400, then steps of 2400 (SCRATCH_1: 3600).
                "SCRATCH_2|1200|true",
                "SCRATCH_2|2400|true",
                "SCRATCH_2|4800|true",
                "SCRATCH_2|3600|false",
                "SCRATCH_2|1300|false",
                "SCRATCH_1|3600|true",
                "SCRATCH_1|4800|false",
                "SCRATCH_1|7200|true",
            })
    void storageCapacityFollowsAwsSteps(String type, int gib, boolean valid) {
        List<SpecProblem> found = problems("{\"type\": \"fsx-lustre\", \"deploymentType\": \"" + type
                + "\", \"storageCapacityGiB\": " + gib + "}");
        if (valid) {
            assertThat(found).isEmpty();
        } else {
            assertThat(found).singleElement().satisfies(p -> {
                assertThat(p.pointer()).isEqualTo("/volume/storageCapacityGiB");
                assertThat(p.hint())
                        .contains(String.valueOf(
                                LustreDeploymentType.valueOf(type).validCapacityAtLeast(gib)));
            });
        }
    }

    @Test
    void persistentTypesNeedOneOfTheirThroughputsAndScratchTakesNone() {
        assertThat(problems("{\"type\": \"fsx-lustre\", \"deploymentType\": \"PERSISTENT_2\"}"))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/volume/perUnitStorageThroughput");
                    assertThat(p.hint()).contains("125", "1000");
                });
        assertThat(problems("{\"type\": \"fsx-lustre\", \"deploymentType\": \"PERSISTENT_2\","
                        + " \"perUnitStorageThroughput\": 200}"))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("200", "PERSISTENT_2"));
        assertThat(problems("{\"type\": \"fsx-lustre\", \"deploymentType\": \"PERSISTENT_1\","
                        + " \"perUnitStorageThroughput\": 200}"))
                .isEmpty();
        assertThat(problems("{\"type\": \"fsx-lustre\", \"perUnitStorageThroughput\": 125}"))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/volume/perUnitStorageThroughput");
                    assertThat(p.hint()).contains("leave volume.perUnitStorageThroughput out");
                });
    }

    @Test
    void eachS3PathIsALinkOfItsOwnOnAnyTypeButScratch1() {
        // Import and export are two data repository associations: either alone, in any buckets.
        assertThat(problems("{\"type\": \"fsx-lustre\", \"s3ExportPath\": \"s3://b-1/out\"}"))
                .isEmpty();
        assertThat(problems("{\"type\": \"fsx-lustre\", \"s3ImportPath\": \"s3://b-1/in\","
                        + " \"s3ExportPath\": \"s3://b-2/out\"}"))
                .isEmpty();
        assertThat(problems("{\"type\": \"fsx-lustre\", \"deploymentType\": \"PERSISTENT_2\","
                        + " \"perUnitStorageThroughput\": 125, \"s3ImportPath\": \"s3://b-1/in\"}"))
                .isEmpty();
        assertThat(problems("{\"type\": \"fsx-lustre\", \"deploymentType\": \"SCRATCH_1\","
                        + " \"s3ImportPath\": \"s3://b-1/in\", \"s3ExportPath\": \"s3://b-1/out\"}"))
                .extracting(SpecProblem::pointer)
                .containsExactlyInAnyOrder("/volume/s3ImportPath", "/volume/s3ExportPath");
        assertThat(problems("{\"type\": \"fsx-lustre\", \"s3ImportPath\": \"https://b-1/in\"}"))
                .extracting(SpecProblem::pointer)
                .containsExactly("/volume/s3ImportPath");
    }

    @Test
    void lustreFieldsAreRefusedOnOtherVolumesAndOnAnAdoptedFileSystem() {
        assertThat(problems("{\"type\": \"efs\", \"deploymentType\": \"SCRATCH_2\"}"))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/volume/deploymentType");
                    assertThat(p.hint()).contains("fsx-lustre");
                });
        assertThat(problems("{\"type\": \"fsx-lustre\", \"fileSystemId\": \"fs-0123456789abcdef0\","
                        + " \"storageCapacityGiB\": 2400}"))
                .singleElement()
                .satisfies(p -> assertThat(p.pointer()).isEqualTo("/volume/storageCapacityGiB"));
        assertThat(problems("{\"type\": \"fsx-lustre\", \"fileSystemId\": \"fs-0123456789abcdef0\"}"))
                .isEmpty();
    }
}
