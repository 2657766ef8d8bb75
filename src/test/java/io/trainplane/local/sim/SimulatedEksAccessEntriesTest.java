package io.trainplane.local.sim;

import static io.trainplane.local.sim.SimAccount.cluster;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.local.iam.Caller;
import io.trainplane.local.iam.Callers;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.model.AccessEntry;
import software.amazon.awssdk.services.eks.model.AccessScopeType;
import software.amazon.awssdk.services.eks.model.CreateAccessConfigRequest;
import software.amazon.awssdk.services.eks.model.CreateAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.InvalidRequestException;
import software.amazon.awssdk.services.eks.model.ResourceInUseException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

class SimulatedEksAccessEntriesTest {
    static final String ROLE = "arn:aws:iam::000000000000:role/trainplane-ClusterWorkRole";
    static final Caller WORK_ROLE = new Caller(
            "CreateCluster",
            "ClusterWorkRole",
            "arn:aws:sts::000000000000:assumed-role/trainplane-ClusterWorkRole/trainplane-CreateCluster");
    static final String DEV = "arn:aws:iam::000000000000:role/dev";
    static final String ADMIN_POLICY = EksAccessEntries.CLUSTER_ADMIN_POLICY;
    static final String VIEW_POLICY = EksAccessEntries.POLICY_PREFIX + "AmazonEKSViewPolicy";
    final SimAccount sim = new SimAccount();

    void createAs(Caller caller, CreateClusterRequest request) {
        Callers.as(caller, () -> sim.eks.createCluster(request));
    }

    AccessEntry describe(String cluster, String principal) {
        return sim.eks
                .describeAccessEntry(r -> r.clusterName(cluster).principalArn(principal))
                .accessEntry();
    }

    CreateAccessEntryRequest entry(String cluster, String principal, String token) {
        return CreateAccessEntryRequest.builder()
                .clusterName(cluster)
                .principalArn(principal)
                .clientRequestToken(token)
                .build();
    }

    @Test
    void theCreatorsRoleGetsAnAdminEntryWhenItCreatesTheClusterThroughASession() {
        createAs(WORK_ROLE, cluster("c1", "t", "run-1"));

        assertThat(sim.eks.listAccessEntries(r -> r.clusterName("c1")).accessEntries())
                .containsExactly(ROLE);
        AccessEntry entry = describe("c1", ROLE);
        assertThat(entry.accessEntryArn())
                .matches(
                        "arn:aws:eks:us-east-1:000000000000:access-entry/c1/role/000000000000/trainplane-ClusterWorkRole/"
                                + "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertThat(entry.type()).isEqualTo("STANDARD");
        assertThat(entry.username())
                .isEqualTo("arn:aws:sts::000000000000:assumed-role/trainplane-ClusterWorkRole/{{SessionName}}");
        var policies = sim.eks
                .listAssociatedAccessPolicies(r -> r.clusterName("c1").principalArn(ROLE))
                .associatedAccessPolicies();
        assertThat(policies).singleElement().satisfies(p -> {
            assertThat(p.policyArn()).isEqualTo(ADMIN_POLICY);
            assertThat(p.accessScope().type()).isEqualTo(AccessScopeType.CLUSTER);
        });
        assertThat(sim.eks
                        .listAccessEntries(r -> r.clusterName("c1").associatedPolicyArn(VIEW_POLICY))
                        .accessEntries())
                .isEmpty();
    }

    @Test
    void noCreatorEntryWhenTheRequestSaysSoAndConfigMapClustersCannotSaySo() {
        createAs(
                WORK_ROLE,
                cluster("c1", "t", "run-1").toBuilder()
                        .accessConfig(a -> a.authenticationMode("API").bootstrapClusterCreatorAdminPermissions(false))
                        .build());
        assertThat(sim.eks.listAccessEntries(r -> r.clusterName("c1")).accessEntries())
                .isEmpty();

        assertThatThrownBy(() -> createAs(
                        WORK_ROLE,
                        cluster("c2", "t", "run-1").toBuilder()
                                .accessConfig(a -> a.authenticationMode("CONFIG_MAP")
                                        .bootstrapClusterCreatorAdminPermissions(false))
                                .build()))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith(
                        "bootstrapClusterCreatorAdminPermissions must be true if cluster authentication mode is set to CONFIG_MAP");
        assertThat(sim.eks.listClusters(r -> {}).clusters()).containsExactly("c1");
    }

    @Test
    void configMapClustersHaveNoAccessEntries() {
        createAs(
                WORK_ROLE,
                cluster("c1", "t", "run-1").toBuilder()
                        .accessConfig(a -> a.authenticationMode("CONFIG_MAP"))
                        .build());
        // Without accessConfig EKS's API defaults to CONFIG_MAP too.
        createAs(
                WORK_ROLE,
                cluster("c2", "t", "run-1").toBuilder()
                        .accessConfig((CreateAccessConfigRequest) null)
                        .build());

        for (String c : new String[] {"c1", "c2"}) {
            assertThatThrownBy(() -> sim.eks.createAccessEntry(entry(c, DEV, null)))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageStartingWith(
                            "The cluster's authentication mode must be set to one of [API, API_AND_CONFIG_MAP]");
            assertThatThrownBy(() -> sim.eks.listAccessEntries(r -> r.clusterName(c)))
                    .isInstanceOf(InvalidRequestException.class);
        }
    }

    @Test
    void onePrincipalOneEntryUnlessTheSameRequestIsRetried() {
        createAs(WORK_ROLE, cluster("c1", "t", "run-1"));
        AccessEntry first = sim.eks.createAccessEntry(entry("c1", DEV, "tok-1")).accessEntry();

        assertThat(sim.eks.createAccessEntry(entry("c1", DEV, "tok-1")).accessEntry())
                .isEqualTo(first);
        assertThatThrownBy(() -> sim.eks.createAccessEntry(entry("c1", DEV, "tok-2")))
                .isInstanceOf(ResourceInUseException.class)
                .hasMessageStartingWith("The specified access entry resource is already in use on this cluster.")
                .satisfies(e ->
                        assertThat(((ResourceInUseException) e).statusCode()).isEqualTo(409));
        // The creator's entry counts too.
        assertThatThrownBy(() -> sim.eks.createAccessEntry(entry("c1", ROLE, null)))
                .isInstanceOf(ResourceInUseException.class);
        assertThat(sim.eks.listAccessEntries(r -> r.clusterName("c1")).accessEntries())
                .containsExactlyInAnyOrder(ROLE, DEV);
    }

    @Test
    void aRoleSessionOrAServiceIsNoPrincipalForAnEntry() {
        createAs(WORK_ROLE, cluster("c1", "t", "run-1"));
        for (String principal : new String[] {WORK_ROLE.arn(), "arn:aws:iam::000000000000:policy/x", "dev"}) {
            assertThatThrownBy(() -> sim.eks.createAccessEntry(entry("c1", principal, null)))
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("The principalArn parameter format is not valid");
        }
        assertThatThrownBy(() ->
                        sim.eks.createAccessEntry(entry("c1", "arn:aws:iam::000000000000:user/u", null).toBuilder()
                                .type("EC2_LINUX")
                                .build()))
                .isInstanceOf(InvalidParameterException.class);
    }

    @Test
    void missingEntriesAndClustersAreNotFound() {
        createAs(WORK_ROLE, cluster("c1", "t", "run-1"));
        assertThatThrownBy(() -> describe("c1", DEV))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageStartingWith("The specified principalArn could not be found.")
                .satisfies(e ->
                        assertThat(((ResourceNotFoundException) e).statusCode()).isEqualTo(404));
        assertThatThrownBy(
                        () -> sim.eks.deleteAccessEntry(r -> r.clusterName("c1").principalArn(DEV)))
                .isInstanceOf(ResourceNotFoundException.class);
        assertThatThrownBy(() -> sim.eks.createAccessEntry(entry("nope", DEV, null)))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageStartingWith("No cluster found for name: nope.");
    }

    @Test
    void entriesAreTaggedOnCreateAndByArn() {
        createAs(WORK_ROLE, cluster("c1", "t", "run-1"));
        String arn = sim.eks
                .createAccessEntry(entry("c1", DEV, null).toBuilder()
                        .tags(Map.of("team", "ml"))
                        .build())
                .accessEntry()
                .accessEntryArn();
        assertThat(arn).startsWith("arn:aws:eks:us-east-1:000000000000:access-entry/c1/role/000000000000/dev/");

        sim.eks.tagResource(r -> r.resourceArn(arn).tags(Map.of("owner", "me")));
        assertThat(sim.eks.listTagsForResource(r -> r.resourceArn(arn)).tags())
                .containsExactlyInAnyOrderEntriesOf(Map.of("team", "ml", "owner", "me"));
        assertThat(describe("c1", DEV).tags()).containsEntry("owner", "me");
    }

    @Test
    void policiesAreAssociatedWithAScopeAndDisassociated() {
        createAs(WORK_ROLE, cluster("c1", "t", "run-1"));
        sim.eks.createAccessEntry(entry("c1", DEV, null));

        assertThatThrownBy(() -> sim.eks.associateAccessPolicy(r -> r.clusterName("c1")
                        .principalArn(DEV)
                        .policyArn(VIEW_POLICY)
                        .accessScope(s -> s.type(AccessScopeType.NAMESPACE))))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("namespaces");
        assertThatThrownBy(() -> sim.eks.associateAccessPolicy(r -> r.clusterName("c1")
                        .principalArn(DEV)
                        .policyArn("arn:aws:iam::aws:policy/AdministratorAccess")
                        .accessScope(s -> s.type(AccessScopeType.CLUSTER))))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("not an EKS access policy");

        var associated = sim.eks
                .associateAccessPolicy(r -> r.clusterName("c1")
                        .principalArn(DEV)
                        .policyArn(VIEW_POLICY)
                        .accessScope(s -> s.type(AccessScopeType.NAMESPACE).namespaces("tp-*")))
                .associatedAccessPolicy();
        assertThat(associated.accessScope().namespaces()).containsExactly("tp-*");
        assertThat(sim.eks
                        .listAccessEntries(r -> r.clusterName("c1").associatedPolicyArn(VIEW_POLICY))
                        .accessEntries())
                .containsExactly(DEV);

        sim.eks.disassociateAccessPolicy(
                r -> r.clusterName("c1").principalArn(DEV).policyArn(VIEW_POLICY));
        assertThat(sim.eks
                        .listAssociatedAccessPolicies(r -> r.clusterName("c1").principalArn(DEV))
                        .associatedAccessPolicies())
                .isEmpty();
        assertThatThrownBy(() -> sim.eks.disassociateAccessPolicy(
                        r -> r.clusterName("c1").principalArn(DEV).policyArn(VIEW_POLICY)))
                .isInstanceOf(ResourceNotFoundException.class);

        sim.eks.deleteAccessEntry(r -> r.clusterName("c1").principalArn(DEV));
        assertThat(sim.eks.listAccessEntries(r -> r.clusterName("c1")).accessEntries())
                .containsExactly(ROLE);
    }

    @Test
    void entriesGoWithTheirCluster() {
        createAs(WORK_ROLE, cluster("c1", "t", "run-1"));
        sim.eks.createAccessEntry(entry("c1", DEV, null));
        sim.advance(SimulatedEks.CLUSTER_CREATING);
        sim.eks.deleteCluster(r -> r.name("c1"));
        sim.advance(SimulatedEks.CLUSTER_DELETING);
        createAs(Caller.USER, cluster("c1", "t2", "run-2"));

        assertThat(sim.eks.listAccessEntries(r -> r.clusterName("c1")).accessEntries())
                .containsExactly("arn:aws:iam::000000000000:user/trainplane-user");
    }
}
