package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.Faults;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalRun;
import io.trainplane.local.RunReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The twin judges with its own facts: with the product's allocatable table made wrong (the EKS AMI
 * reserving nothing, through {@link NodeAllocatable#wrongForTests}), a spec the product now thinks
 * fits a c5.2xlarge is refused by the twin's nodes, whose kubelet reserves what the AMI's nodeadm
 * does (local/sim EksAmiKubelet). Were the twin's nodes still built from the product's table, the
 * pods would schedule and the run would succeed.
 */
class WrongTableRunTest {
    @AfterEach
    void putTheTableRight() {
        NodeAllocatable.wrongForTests = false;
    }

    /**
     * quickstart on c5.2xlarge (8 vCPUs): 7750m per worker plus the checkpoint sidecar's 50m is
     * 7800m. The AMI leaves 7910m, less 145m of DaemonSets (kube-proxy, aws-node, the Pod Identity
     * Agent, the EFS node plugin): 7765m, too little. A table reserving nothing leaves 7855m.
     */
    static ObjectNode spec() throws IOException {
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples", "quickstart.json")));
        spec.put("runId", "wrong-table");
        ((ObjectNode) spec.path("training")).put("cpu", "7750m");
        return spec;
    }

    @Test
    void theRightTableRefusesTheSpecBeforeAnythingIsCreated() throws IOException {
        assertThat(RunSpecs.problems(spec().toString()))
                .extracting(SpecProblem::pointer)
                .contains("/training/cpu");
    }

    @Test
    void aWrongAllocatableTableLetsTheSpecThroughButTheTwinsNodesLeaveThePodsUnschedulable() throws IOException {
        NodeAllocatable.wrongForTests = true;
        ObjectNode spec = spec();
        assertThat(RunSpecs.problems(spec.toString()))
                .as("the wrong table fits it")
                .isEmpty();

        RunReport r;
        List<String> left;
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            r = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(
                            RunSpecs.normalize(Json.write(spec)),
                            spec.path("runId").asText());
            cloud.reconcile();
            left = cloud.inventory();
        }

        assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("FAILED");
        assertThat(r.failedState()).isEqualTo("CheckTraining");
        assertThat(r.error() + " " + r.cause()).contains("Unschedulable").contains("Insufficient cpu");
        assertThat(r.resources().remaining()).isEmpty();
        assertThat(left).isEmpty();
    }
}
