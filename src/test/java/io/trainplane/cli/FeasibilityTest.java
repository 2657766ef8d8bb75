package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.core.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Specs that cannot run are refused by validate, plan and a local run before anything is created. */
class FeasibilityTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            unknown instance type     | .cluster.nodeGroup.instanceType = "c5.notreal"                      | /cluster/nodeGroup/instanceType | c5.notreal
            Kubernetes 1.99           | .cluster.kubernetesVersion = "1.99"                                 | /cluster/kubernetesVersion      | set cluster.kubernetesVersion
            Kubernetes 1.20           | .cluster.kubernetesVersion = "1.20"                                 | /cluster/kubernetesVersion      | set cluster.kubernetesVersion
            8 CPUs on an 8-vCPU node  | .cluster.nodeGroup.nodes = 1, .training.workers = 3, .training.cpu = "8" | /training/cpu        | leaves pods only 7.765 CPUs
            3 workers on one node     | .cluster.nodeGroup.nodes = 1, .training.workers = 3, .training.cpu = "3", .training.memory = "4Gi" | /training/workers    | room for 2 workers
            memory over allocatable   | .training.memory = "16Gi"                                           | /training/memory                | set training.memory to at most
            room for the DaemonSets   | .cluster.nodeGroup.nodes = 2, .training.workers = 2, .training.cpu = "7800m" | /training/cpu        | DaemonSet pods [kube-proxy, aws-node, eks-pod-identity-agent, efs-csi-node] ask for 0.145 CPUs
            Capacity Block of c5      | .cluster.nodeGroup.capacityType = "CAPACITY_BLOCK", .cluster.nodeGroup.capacityReservationId = "cr-0123456789abcdef0" | /cluster/nodeGroup/instanceType | EC2 sells Capacity Blocks for ML only of p4d, p4de, p5
            """)
    void refusedByValidatePlanAndRun(
            String what, String edits, String pointer, String says, @org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        var spec = (com.fasterxml.jackson.databind.node.ObjectNode)
                Json.read(Files.readString(Path.of("examples/quickstart.json")));
        for (String edit : edits.split(", ")) {
            String[] pathAndValue = edit.split(" = ");
            String[] path = pathAndValue[0].substring(1).split("\\.");
            var node = spec;
            for (int i = 0; i < path.length - 1; i++) {
                node = (com.fasterxml.jackson.databind.node.ObjectNode) node.get(path[i]);
            }
            node.set(path[path.length - 1], Json.read(pathAndValue[1]));
        }
        Path file = dir.resolve("spec.json");
        Files.writeString(file, spec.toString());
        for (String command : new String[] {"validate", "plan", "run"}) {
            CliTest.Result r = CliTest.cli(command, file.toString());
            assertThat(r.exit()).as(command + ": " + what + "\n" + r.err()).isEqualTo(2);
            assertThat(r.err())
                    .as(command + ": " + what)
                    .contains(pointer + ": ", says, "hint: ", "nothing was created");
            assertThat(r.out()).as(command).isEmpty();
        }
    }
}
