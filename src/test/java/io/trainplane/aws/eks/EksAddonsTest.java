package io.trainplane.aws.eks;

import static io.trainplane.aws.eks.Fixtures.TAGS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.aws.ResourceState;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.eks.model.Addon;
import software.amazon.awssdk.services.eks.model.AddonHealth;
import software.amazon.awssdk.services.eks.model.AddonIssue;
import software.amazon.awssdk.services.eks.model.AddonStatus;
import software.amazon.awssdk.services.eks.model.CreateAddonRequest;
import software.amazon.awssdk.services.eks.model.CreateAddonResponse;
import software.amazon.awssdk.services.eks.model.DescribeAddonRequest;
import software.amazon.awssdk.services.eks.model.DescribeAddonResponse;
import software.amazon.awssdk.services.eks.model.ListAddonsRequest;
import software.amazon.awssdk.services.eks.model.ListAddonsResponse;

/**
 * The add-on lifecycle against a hand-written EKS: moto 5 has no add-on API at all (see
 * {@link EksAddonsMotoTest}), so this is where ensure and state are tested.
 */
class EksAddonsTest {
    static final String CLUSTER = Fixtures.NAMES.clusterName();

    /** EKS's add-on API in miniature: one add-on per name, created once. */
    static final class AddonsOfOneCluster extends StubEks {
        final Map<String, Addon> addons = new HashMap<>();
        final List<CreateAddonRequest> creates = new ArrayList<>();

        @Override
        public CreateAddonResponse createAddon(CreateAddonRequest request) {
            creates.add(request);
            if (!request.clusterName().equals(CLUSTER)) {
                throw notFound("No cluster found for name: " + request.clusterName() + ".");
            }
            if (request.addonName().equals("not-an-addon")) {
                throw invalid("Addon not-an-addon specified is not supported in 1.31 kubernetes version");
            }
            if (addons.containsKey(request.addonName())) {
                throw inUse("Addon already exists.");
            }
            Addon addon = Addon.builder()
                    .addonName(request.addonName())
                    .clusterName(CLUSTER)
                    .status(AddonStatus.CREATING)
                    .build();
            addons.put(request.addonName(), addon);
            return CreateAddonResponse.builder().addon(addon).build();
        }

        @Override
        public ListAddonsResponse listAddons(ListAddonsRequest request) {
            if (!request.clusterName().equals(CLUSTER)) {
                throw notFound("No cluster found for name: " + request.clusterName() + ".");
            }
            return ListAddonsResponse.builder().addons(addons.keySet()).build();
        }

        @Override
        public DescribeAddonResponse describeAddon(DescribeAddonRequest request) {
            Addon addon = addons.get(request.addonName());
            if (addon == null) {
                throw notFound("No addon: " + request.addonName() + " found in cluster: " + request.clusterName());
            }
            return DescribeAddonResponse.builder().addon(addon).build();
        }
    }

    final AddonsOfOneCluster eks = new AddonsOfOneCluster();
    final EksAddons addons = new EksAddons(eks);

    @Test
    void ensureCreatesOnceThenFindsItThere() {
        PodIdentity identity = PodIdentity.efsCsiController(Fixtures.ROLES.efsCsiRoleArn());

        assertThat(addons.ensure(CLUSTER, EksAddons.EFS_CSI_DRIVER, Optional.of(identity), TAGS))
                .isEqualTo(Creation.CREATED);
        assertThat(addons.ensure(CLUSTER, EksAddons.EFS_CSI_DRIVER, Optional.of(identity), TAGS))
                .isEqualTo(Creation.ADOPTED);

        assertThat(eks.creates).hasSize(2).allSatisfy(request -> {
            assertThat(request.podIdentityAssociations()).singleElement().satisfies(a -> {
                assertThat(a.serviceAccount()).isEqualTo("efs-csi-controller-sa");
                assertThat(a.roleArn()).isEqualTo(Fixtures.ROLES.efsCsiRoleArn());
            });
        });
        assertThat(eks.creates.get(0).clientRequestToken())
                .isEqualTo(eks.creates.get(1).clientRequestToken());
        assertThat(addons.state(CLUSTER, EksAddons.EFS_CSI_DRIVER)).isInstanceOf(ResourceState.Creating.class);
    }

    @Test
    void missingClusterAndUnknownAddonAreTerminal() {
        assertThatThrownBy(() -> addons.ensure("other", EksAddons.POD_IDENTITY_AGENT, Optional.empty(), TAGS))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ClusterNotFound));
        assertThatThrownBy(() -> addons.ensure(CLUSTER, "not-an-addon", Optional.empty(), TAGS))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.EksInvalidParameter))
                .hasMessageContaining("not supported in 1.31");
    }

    @ParameterizedTest
    @CsvSource({
        "ACTIVE, Ready",
        "CREATING, Creating",
        "UPDATING, Creating",
        "DELETING, Deleting",
        "CREATE_FAILED, Failed",
        "DEGRADED, Failed",
        "UPDATE_FAILED, Failed",
        "DELETE_FAILED, Failed"
    })
    void statesMapOntoTheSharedEnum(String status, String state) {
        eks.addons.put(
                EksAddons.POD_IDENTITY_AGENT,
                Addon.builder()
                        .addonName(EksAddons.POD_IDENTITY_AGENT)
                        .status(status)
                        .build());

        assertThat(addons.state(CLUSTER, EksAddons.POD_IDENTITY_AGENT)
                        .getClass()
                        .getSimpleName())
                .isEqualTo(state);
    }

    @Test
    void failedAddonCarriesItsHealthIssues() {
        eks.addons.put(
                EksAddons.EFS_CSI_DRIVER,
                Addon.builder()
                        .addonName(EksAddons.EFS_CSI_DRIVER)
                        .status(AddonStatus.CREATE_FAILED)
                        .health(AddonHealth.builder()
                                .issues(AddonIssue.builder()
                                        .code("InsufficientNumberOfReplicas")
                                        .message(
                                                "The add-on is unhealthy because it doesn't have the desired number of replicas.")
                                        .build())
                                .build())
                        .build());

        assertThat(addons.state(CLUSTER, EksAddons.EFS_CSI_DRIVER))
                .isInstanceOfSatisfying(ResourceState.Failed.class, failed -> assertThat(failed.reason())
                        .contains("EKS add-on aws-efs-csi-driver could not be installed")
                        .contains("InsufficientNumberOfReplicas: The add-on is unhealthy"));
    }

    @Test
    void unknownAddonIsGone() {
        assertThat(addons.state(CLUSTER, EksAddons.POD_IDENTITY_AGENT)).isEqualTo(new ResourceState.Gone());
    }
}
