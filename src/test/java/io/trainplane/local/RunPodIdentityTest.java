package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.TestTime;
import io.trainplane.aws.eks.PodIdentity;
import io.trainplane.local.sim.AddonPodIdentity;
import io.trainplane.local.sim.CloudResource;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The run's pods get the stack's run outputs role through an EKS Pod Identity association of the
 * run's service account, made when the run's namespace is, and deleted by cleanup before the
 * cluster, on an existing cluster too.
 */
class RunPodIdentityTest {
    static final String OUTPUTS_ROLE = "arn:aws:iam::000000000000:role/trainplane-RunOutputsRole";

    static RunReport quickstart(LocalCloud cloud, Faults faults) throws IOException {
        return new LocalRun(cloud, faults, e -> {})
                .execute(RunSpecs.normalize(Files.readString(Path.of("examples/quickstart.json"))), "quickstart");
    }

    static List<AddonPodIdentity> runAssociations(LocalCloud cloud) {
        return cloud.eks().podIdentityAssociations().stream()
                .filter(a -> a.serviceAccount().equals(PodIdentity.RUN_SERVICE_ACCOUNT))
                .toList();
    }

    @Test
    void theRunsServiceAccountIsAssociatedWithTheOutputsRoleAndCleanupDeletesItBeforeTheCluster() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = quickstart(cloud, Faults.none());

            assertThat(r.status()).isEqualTo("SUCCEEDED");
            assertThat(r.calls())
                    .containsEntry("eks:CreatePodIdentityAssociation", 1)
                    .containsEntry("eks:DeletePodIdentityAssociation", 1);
            assertThat(runAssociations(cloud)).isEmpty();
            assertThat(cloud.awsResources())
                    .extracting(CloudResource::ref)
                    .noneMatch(ref -> ref.startsWith("eks:podidentityassociation/"));
            assertThat(r.resources().remaining()).isEmpty();
        }
    }

    @Test
    void anAssociationCleanupCannotDeleteHoldsTheClusterAndTheErrorNamesIt() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = quickstart(
                    cloud, new Faults(Set.of(), Set.of(), Set.of("eks:DeletePodIdentityAssociation"), Set.of()));

            assertThat(r.status()).isEqualTo("FAILED");
            List<AddonPodIdentity> left = runAssociations(cloud);
            assertThat(left).hasSize(1);
            assertThat(left.get(0).roleArn()).isEqualTo(OUTPUTS_ROLE);
            assertThat(left.get(0).namespace()).isEqualTo("tp-quickstart");
            assertThat(r.resources().remaining())
                    .contains("eks:podidentityassociation/" + left.get(0).clusterName() + "/"
                            + left.get(0).associationId())
                    .anyMatch(ref -> ref.startsWith("eks:cluster/"));
        }
    }

    @Test
    void onAnExistingClusterTheAssociationIsTheRunsAndGoesWithIt() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r =
                    ExistingClusterAccessTest.runAsWorkRole(cloud, "examples/existing-cluster.json", new ArrayList<>());

            assertThat(r.status()).isEqualTo("SUCCEEDED");
            assertThat(r.calls()).containsEntry("eks:CreatePodIdentityAssociation", 1);
            assertThat(runAssociations(cloud)).isEmpty();
            assertThat(cloud.eks()
                            .describeCluster(c -> c.name(LocalCloud.DEMO_CLUSTER))
                            .cluster())
                    .isNotNull();
        }
    }
}
