package io.trainplane.aws.eks;

import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Addon;
import software.amazon.awssdk.services.eks.model.AddonStatus;
import software.amazon.awssdk.services.eks.model.CreateAddonRequest;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.ResourceInUseException;
import software.amazon.awssdk.services.eks.model.ResourceLimitExceededException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/**
 * The EKS add-ons a run's cluster gets: ensure (create unless there), state. They go with the
 * cluster, so there is no delete.
 */
public final class EksAddons {
    /** The agent that hands Pod Identity credentials to pods; the EFS CSI driver relies on it. */
    public static final String POD_IDENTITY_AGENT = "eks-pod-identity-agent";
    /** The EFS CSI driver, which mounts the run's EFS volume. */
    public static final String EFS_CSI_DRIVER = "aws-efs-csi-driver";
    /**
     * The FSx for Lustre CSI driver, which mounts the run's FSx volume; it needs the Pod Identity
     * agent (https://docs.aws.amazon.com/eks/latest/userguide/fsx-csi-create.html).
     */
    public static final String FSX_CSI_DRIVER = "aws-fsx-csi-driver";

    private final EksClient eks;

    public EksAddons(EksClient eks) {
        this.eks = eks;
    }

    /**
     * Installs the add-on ({@link EksRequests#createAddon}), tagged with the run's tags, unless the
     * cluster already has it.
     *
     * @return {@link Creation#ADOPTED} when it was already there
     * @throws TerminalException when the cluster does not exist or EKS refuses the add-on (an
     *     unknown name, no version for the cluster's Kubernetes version, a bad role)
     */
    public Creation ensure(String clusterName, String addonName, Optional<PodIdentity> podIdentity, RunTags tags) {
        CreateAddonRequest request = EksRequests.createAddon(clusterName, addonName, podIdentity, tags);
        String what = "EKS add-on " + addonName + " of cluster " + clusterName;
        try {
            eks.createAddon(request);
            return Creation.CREATED;
        } catch (ResourceInUseException e) {
            return Creation.ADOPTED;
        } catch (ResourceNotFoundException e) {
            throw new TerminalException(
                    FailureReason.ClusterNotFound,
                    "cannot install " + what + ": the cluster does not exist in " + EksFailures.region(eks) + " ("
                            + EksFailures.detail(e) + ")",
                    e);
        } catch (ResourceLimitExceededException | InvalidParameterException e) {
            throw EksFailures.refusal(e, "CreateAddon", what, EksFailures.region(eks));
        }
    }

    /**
     * Whether the cluster lists the add-on. Asked before describing it: one that does not exist has
     * no tags, and the role (which may describe tagged add-ons only) would be refused, where
     * ListAddons on the tagged cluster answers.
     */
    private boolean listed(String clusterName, String addonName) {
        return installed(clusterName).contains(addonName);
    }

    /** The add-ons the cluster has; none when the cluster is gone. */
    public List<String> installed(String clusterName) {
        try {
            return eks.listAddonsPaginator(r -> r.clusterName(clusterName)).addons().stream()
                    .toList();
        } catch (ResourceNotFoundException e) {
            return List.of();
        }
    }

    /** Where the add-on stands; {@link ResourceState.Gone} when it (or its cluster) is gone. */
    public ResourceState state(String clusterName, String addonName) {
        if (!listed(clusterName, addonName)) {
            return new ResourceState.Gone();
        }
        Addon addon;
        try {
            addon = eks.describeAddon(r -> r.clusterName(clusterName).addonName(addonName))
                    .addon();
        } catch (ResourceNotFoundException e) {
            return new ResourceState.Gone();
        }
        String what = "EKS add-on " + addonName;
        AddonStatus status = addon.status();
        if (status == null) {
            return new ResourceState.Creating(what + " reports no status yet");
        }
        return switch (status) {
            case ACTIVE -> new ResourceState.Ready();
            case CREATING, UPDATING -> new ResourceState.Creating(what + " is " + status);
            case DELETING -> new ResourceState.Deleting();
            case CREATE_FAILED -> new ResourceState.Failed(what + " could not be installed: " + issues(addon));
            case DEGRADED -> new ResourceState.Failed(what + " is degraded: " + issues(addon));
            case UPDATE_FAILED -> new ResourceState.Failed(what + " could not be updated: " + issues(addon));
            case DELETE_FAILED -> new ResourceState.Failed(what + " could not be deleted: " + issues(addon));
            case UNKNOWN_TO_SDK_VERSION ->
                new ResourceState.Creating(
                        what + " reports status " + addon.statusAsString() + ", unknown to this version");
        };
    }

    private static String issues(Addon addon) {
        List<EksFailures.HealthIssue> issues = addon.health() == null
                        || !addon.health().hasIssues()
                ? List.of()
                : addon.health().issues().stream()
                        .map(i -> new EksFailures.HealthIssue(
                                i.codeAsString(), i.message(), i.hasResourceIds() ? i.resourceIds() : List.of()))
                        .toList();
        return EksFailures.describe(issues, "EKS reports no health issue; see the add-on's pods in kube-system");
    }
}
