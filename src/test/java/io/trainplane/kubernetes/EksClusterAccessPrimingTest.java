package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThatCode;

import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;

/**
 * The Kubernetes functions' SnapStart priming runs offline: no AWS endpoint or cluster is set up
 * here, and the run's every object, of both launchers, maps there and back.
 */
class EksClusterAccessPrimingTest {
    @Test
    void primesWithoutAnEndpointForEitherLauncher() throws Exception {
        String quickstart = Files.readString(Path.of("examples/quickstart.json"));
        RunSpec indexedJob = RunSpecs.parse(quickstart).withRunId("priming");
        RunSpec pyTorchJob = RunSpecs.parse(
                        quickstart.replace("\"training\": {", "\"training\": {\"launcher\": \"pytorchjob\", "))
                .withRunId("priming");

        assertThatCode(() -> EksClusterAccess.prime(Region.US_EAST_1, indexedJob))
                .doesNotThrowAnyException();
        assertThatCode(() -> EksClusterAccess.prime(Region.EU_WEST_1, pyTorchJob))
                .doesNotThrowAnyException();
    }
}
