package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.TestTime;
import io.trainplane.local.asl.HistoryEvent;
import io.trainplane.local.iam.Caller;
import io.trainplane.local.iam.Callers;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs on the pre-existing cluster as the stack's ClusterWorkRole (the functions that use a
 * cluster all run under it): the demo cluster's access entry lets them in; without it the API
 * server answers 401 and the run fails at ConnectCluster with the commands that fix it.
 */
class ExistingClusterAccessTest {
    /** Every function of the run calls as a session of ClusterWorkRole. */
    static final Caller WORK_ROLE = new Caller(
            "ConnectCluster",
            "ClusterWorkRole",
            "arn:aws:sts::000000000000:assumed-role/trainplane-ClusterWorkRole/trainplane-ConnectCluster");

    static RunReport runAsWorkRole(LocalCloud cloud, String example, List<HistoryEvent> history) throws IOException {
        var spec = RunSpecs.normalize(Files.readString(Path.of(example)));
        String runId = spec.path("runId").asText();
        return Callers.as(WORK_ROLE, () -> new LocalRun(cloud, Faults.none(), history::add).execute(spec, runId));
    }

    @Test
    void theDemoClustersAccessEntryLetsTheStacksRoleIn() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = runAsWorkRole(cloud, "examples/existing-cluster.json", new ArrayList<>());

            assertThat(r.status()).isEqualTo("SUCCEEDED");
            assertThat(r.resources().remaining()).isEmpty();
            assertThat(cloud.apiServerGate().log()).isEmpty();
        }
    }

    @Test
    void withoutTheEntryTheRunFailsBeforeTrainingWithTheFixAndLeavesNothing() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            cloud.eks().deleteAccessEntry(r -> r.clusterName(LocalCloud.DEMO_CLUSTER)
                    .principalArn(LocalCloud.CLUSTER_WORK_ROLE_ARN));
            List<HistoryEvent> history = new ArrayList<>();
            RunReport r = runAsWorkRole(cloud, "examples/existing-cluster.json", history);

            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.failedState()).isEqualTo("ConnectCluster");
            assertThat(r.error()).isEqualTo("ClusterAccessDenied");
            assertThat(r.cause())
                    .contains(
                            "cluster trainplane-demo answered 401 Unauthorized",
                            "no EKS access entry",
                            "aws eks create-access-entry --cluster-name trainplane-demo",
                            "AmazonEKSClusterAdminPolicy");
            assertThat(history)
                    .filteredOn(e -> e.type().equals("TaskStateEntered"))
                    .extracting(HistoryEvent::stateName)
                    .doesNotContain("CreateVolume", "StartDataJob", "StartTraining")
                    .contains("Teardown");
            assertThat(r.resources().created()).isEmpty();
            assertThat(r.resources().remaining()).isEmpty();
            assertThat(cloud.inventory()).isEmpty();
            // fabric8 asks for a fresh token once after a 401 and tries again: the same refusal.
            assertThat(cloud.apiServerGate().log())
                    .isNotEmpty()
                    .allSatisfy(
                            line -> assertThat(line)
                                    .startsWith("401 GET /api/v1/namespaces/tp-warm-cluster: ")
                                    .endsWith(
                                            "no access entry for arn:aws:iam::000000000000:role/trainplane-ClusterWorkRole on cluster trainplane-demo"));
        }
    }

    @Test
    void aClusterTheRoleCreatedAdmitsItAsItsCreator() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = runAsWorkRole(cloud, "examples/quickstart.json", new ArrayList<>());

            assertThat(r.status()).isEqualTo("SUCCEEDED");
            assertThat(cloud.apiServerGate().log()).isEmpty();
        }
    }
}
