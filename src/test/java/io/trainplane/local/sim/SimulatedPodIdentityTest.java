package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.model.CreatePodIdentityAssociationRequest;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.PodIdentityAssociationSummary;
import software.amazon.awssdk.services.eks.model.ResourceInUseException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/** EKS Pod Identity associations of their own (not an add-on's): their rules in the simulated EKS. */
class SimulatedPodIdentityTest {
    static final String OUTPUTS_ROLE = "arn:aws:iam::000000000000:role/trainplane-RunOutputsRole";
    static final String LAMBDA_ROLE = "arn:aws:iam::000000000000:role/trainplane-ClusterWorkRole";

    final SimAccount sim = new SimAccount();

    SimulatedPodIdentityTest() {
        sim.eks.trustingPods(Set.of(OUTPUTS_ROLE));
        sim.eks.createCluster(SimAccount.cluster("tp-r1", "tok", "r1"));
        sim.advance(SimulatedEks.CLUSTER_CREATING);
    }

    static CreatePodIdentityAssociationRequest association(String namespace, String role, String token) {
        return CreatePodIdentityAssociationRequest.builder()
                .clusterName("tp-r1")
                .namespace(namespace)
                .serviceAccount("trainplane-run")
                .roleArn(role)
                .clientRequestToken(token)
                .tags(Map.of("trainplane:run-id", "r1"))
                .build();
    }

    @Test
    void oneAssociationPerServiceAccountARetryAnswersTheFirstAndItIsDescribedListedAndDeleted() {
        var created = sim.eks
                .createPodIdentityAssociation(association("tp-r1", OUTPUTS_ROLE, "t1"))
                .association();
        assertThat(created.associationArn())
                .isEqualTo(
                        "arn:aws:eks:us-east-1:000000000000:podidentityassociation/tp-r1/" + created.associationId());
        assertThat(sim.eks
                        .createPodIdentityAssociation(association("tp-r1", OUTPUTS_ROLE, "t1"))
                        .association()
                        .associationId())
                .isEqualTo(created.associationId());
        assertThatThrownBy(() -> sim.eks.createPodIdentityAssociation(association("tp-r1", OUTPUTS_ROLE, "t2")))
                .isInstanceOf(ResourceInUseException.class)
                .hasMessageContaining("trainplane-run");
        assertThat(sim.eks
                        .describePodIdentityAssociation(
                                r -> r.clusterName("tp-r1").associationId(created.associationId()))
                        .association()
                        .roleArn())
                .isEqualTo(OUTPUTS_ROLE);
        assertThat(sim.eks
                        .listPodIdentityAssociations(r -> r.clusterName("tp-r1").namespace("tp-r1"))
                        .associations())
                .extracting(PodIdentityAssociationSummary::serviceAccount)
                .containsExactly("trainplane-run");
        assertThat(sim.eks.resources())
                .extracting(CloudResource::ref)
                .contains("eks:podidentityassociation/tp-r1/" + created.associationId());
        sim.eks.deletePodIdentityAssociation(r -> r.clusterName("tp-r1").associationId(created.associationId()));
        assertThatThrownBy(() -> sim.eks.describePodIdentityAssociation(
                        r -> r.clusterName("tp-r1").associationId(created.associationId())))
                .isInstanceOf(ResourceNotFoundException.class);
        assertThatThrownBy(() -> sim.eks.deletePodIdentityAssociation(
                        r -> r.clusterName("tp-r1").associationId(created.associationId())))
                .isInstanceOf(ResourceNotFoundException.class);
        // Another namespace's service account of the same name is another association.
        sim.eks.createPodIdentityAssociation(association("tp-r2", OUTPUTS_ROLE, "t3"));
    }

    @Test
    void aRoleThatDoesNotTrustEksPodIdentityIsRefusedAndNothingIsCreated() {
        assertThatThrownBy(() -> sim.eks.createPodIdentityAssociation(association("tp-r1", LAMBDA_ROLE, "t1")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("pods.eks.amazonaws.com");
        assertThatThrownBy(
                        () -> sim.eks.createPodIdentityAssociation(association("tp-r1", OUTPUTS_ROLE, "t1").toBuilder()
                                .serviceAccount(null)
                                .build()))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("serviceAccount");
        assertThat(sim.eks
                        .listPodIdentityAssociations(r -> r.clusterName("tp-r1"))
                        .associations())
                .isEmpty();
    }

    @Test
    void aMissingClusterIsNotFound() {
        assertThatThrownBy(
                        () -> sim.eks.createPodIdentityAssociation(association("tp-r1", OUTPUTS_ROLE, "t1").toBuilder()
                                .clusterName("nope")
                                .build()))
                .isInstanceOf(ResourceNotFoundException.class);
    }
}
