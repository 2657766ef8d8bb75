package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.Decision;
import io.trainplane.local.iam.IamRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.model.AccessScopeType;
import software.amazon.awssdk.services.eks.model.EksException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/** What IAM is asked for the access entry operations (Service Authorization Reference, Amazon EKS). */
class EksPermissionsTest {
    static final String CLUSTER_ARN = "arn:aws:eks:us-east-1:000000000000:cluster/tp-run-1";
    static final String DEV = "arn:aws:iam::000000000000:role/dev";
    final List<IamRequest> asked = new ArrayList<>();
    /** Denies what {@link #denied} names, allows the rest, and remembers every question. */
    final Set<String> denied = new HashSet<>();

    final Authorizer recording = (caller, request) -> {
        asked.add(request);
        return AuditEntry.of(
                caller,
                request,
                denied.contains(request.action()) ? Decision.ImplicitlyDenied : Decision.Allowed,
                null);
    };
    final SimulatedEks eks = new SimulatedEks(
            new CallLog(), new SimulatedClock(SimAccount.START), new FaultPlan(), recording, SimAccount.ENDPOINT);

    EksPermissionsTest() {
        eks.createCluster(SimAccount.cluster("tp-run-1", "t", "run-1"));
        asked.clear();
    }

    IamRequest only(String action) {
        return asked.stream()
                .filter(r -> r.action().equals(action))
                .reduce((a, b) -> {
                    throw new AssertionError("asked twice: " + action);
                })
                .orElseThrow(() -> new AssertionError("not asked: " + action + " in " + asked));
    }

    String createTaggedEntry() {
        return eks.createAccessEntry(r -> r.clusterName("tp-run-1")
                        .principalArn(DEV)
                        .kubernetesGroups("ml", "viewers")
                        .username("dev")
                        .type("STANDARD")
                        .tags(Map.of("trainplane:run-id", "run-1")))
                .accessEntry()
                .accessEntryArn();
    }

    @Test
    void createActsOnTheClusterWithTheEntrysConditionKeysAndTagsTheNewEntry() {
        String arn = createTaggedEntry();

        IamRequest create = only("eks:CreateAccessEntry");
        assertThat(create.resource()).isEqualTo(CLUSTER_ARN);
        assertThat(create.context())
                .containsEntry("eks:principalArn", List.of(DEV))
                .containsEntry("eks:kubernetesGroups", List.of("ml", "viewers"))
                .containsEntry("eks:username", List.of("dev"))
                .containsEntry("eks:accessEntryType", List.of("STANDARD"))
                .containsEntry("aws:RequestTag/trainplane:run-id", List.of("run-1"))
                .containsEntry("aws:TagKeys", List.of("trainplane:run-id"))
                // The cluster's own tags: it is the resource of CreateAccessEntry.
                .containsEntry("aws:ResourceTag/trainplane:run-id", List.of("run-1"));
        IamRequest tag = only("eks:TagResource");
        assertThat(tag.resource())
                .matches(
                        "arn:aws:eks:us-east-1:000000000000:access-entry/tp-run-1/role/000000000000/dev/[0-9a-f-]{36}");
        assertThat(tag.context()).containsEntry("aws:RequestTag/trainplane:run-id", List.of("run-1"));
        assertThat(arn).startsWith("arn:aws:eks:us-east-1:000000000000:access-entry/tp-run-1/role/000000000000/dev/");
    }

    @Test
    void anUntaggedCreateAsksNoTaggingAndSetsOnlyTheKeysItCarries() {
        eks.createAccessEntry(r -> r.clusterName("tp-run-1").principalArn(DEV));
        assertThat(asked).extracting(IamRequest::action).containsExactly("eks:CreateAccessEntry");
        assertThat(only("eks:CreateAccessEntry").context())
                .containsOnlyKeys("eks:principalArn", "aws:ResourceTag/trainplane:run-id");
    }

    @Test
    void theEntrysOperationsActOnTheEntryWithItsOwnTags() {
        String arn = createTaggedEntry();
        eks.tagResource(r -> r.resourceArn(arn).tags(Map.of("entry-only", "yes")));
        asked.clear();

        eks.describeAccessEntry(r -> r.clusterName("tp-run-1").principalArn(DEV));
        eks.listAssociatedAccessPolicies(r -> r.clusterName("tp-run-1").principalArn(DEV));
        eks.associateAccessPolicy(r -> r.clusterName("tp-run-1")
                .principalArn(DEV)
                .policyArn(EksAccessEntries.CLUSTER_ADMIN_POLICY)
                .accessScope(s -> s.type(AccessScopeType.NAMESPACE).namespaces("tp-a", "tp-b")));
        eks.disassociateAccessPolicy(
                r -> r.clusterName("tp-run-1").principalArn(DEV).policyArn(EksAccessEntries.CLUSTER_ADMIN_POLICY));
        eks.deleteAccessEntry(r -> r.clusterName("tp-run-1").principalArn(DEV));

        assertThat(asked)
                .extracting(IamRequest::action)
                .containsExactly(
                        "eks:DescribeAccessEntry",
                        "eks:ListAssociatedAccessPolicies",
                        "eks:AssociateAccessPolicy",
                        "eks:DisassociateAccessPolicy",
                        "eks:DeleteAccessEntry");
        assertThat(asked).allSatisfy(r -> {
            assertThat(r.resource()).isEqualTo(arn);
            assertThat(r.context()).containsEntry("aws:ResourceTag/entry-only", List.of("yes"));
        });
        assertThat(only("eks:AssociateAccessPolicy").context())
                .containsEntry("eks:policyArn", List.of(EksAccessEntries.CLUSTER_ADMIN_POLICY))
                .containsEntry("eks:accessScope", List.of("namespace"))
                .containsEntry("eks:namespaces", List.of("tp-a", "tp-b"));
        assertThat(only("eks:DisassociateAccessPolicy").context())
                .containsKey("eks:policyArn")
                .doesNotContainKey("eks:accessScope");
    }

    @Test
    void listActsOnTheClusterAndAMissingEntryIsAskedAboutWithoutTags() {
        eks.listAccessEntries(r -> r.clusterName("tp-run-1"));
        assertThat(only("eks:ListAccessEntries").resource()).isEqualTo(CLUSTER_ARN);

        assertThatThrownBy(() ->
                        eks.describeAccessEntry(r -> r.clusterName("tp-run-1").principalArn(DEV)))
                .isInstanceOf(ResourceNotFoundException.class);
        IamRequest describe = only("eks:DescribeAccessEntry");
        assertThat(describe.resource())
                .startsWith("arn:aws:eks:us-east-1:000000000000:access-entry/tp-run-1/role/000000000000/dev/");
        assertThat(describe.context()).isEmpty();
    }

    @Test
    void aDeniedCreateCreatesNothing() {
        denied.add("eks:TagResource");
        assertThatThrownBy(this::createTaggedEntry)
                .isInstanceOfSatisfying(
                        EksException.class, e -> assertThat(e.statusCode()).isEqualTo(403));
        assertThat(eks.listAccessEntries(r -> r.clusterName("tp-run-1")).accessEntries())
                .containsExactly("arn:aws:iam::000000000000:user/trainplane-user");
    }

    @Test
    void theCreatorsEntryNeedsNoPermissionOfItsOwn() {
        denied.add("eks:CreateAccessEntry");
        eks.createCluster(SimAccount.cluster("tp-run-2", "t2", "run-2"));
        assertThat(asked)
                .extracting(IamRequest::action)
                .doesNotContain("eks:CreateAccessEntry", "eks:AssociateAccessPolicy");
        assertThat(eks.listAccessEntries(r -> r.clusterName("tp-run-2")).accessEntries())
                .hasSize(1);
    }
}
