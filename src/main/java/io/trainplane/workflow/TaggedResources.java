package io.trainplane.workflow;

import io.trainplane.aws.RunTags;
import io.trainplane.aws.ec2.ControlPlaneLogGroup;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.clients.Clients;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.Names;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.efs.model.FileSystemDescription;
import software.amazon.awssdk.services.efs.model.LifeCycleState;
import software.amazon.awssdk.services.efs.model.Tag;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/**
 * What exists in the account on behalf of the runs of one stack: EKS clusters (with their node
 * groups), EFS file systems and clusters' control-plane log groups tagged
 * {@value Names#RUN_ID_TAG} and {@value RunTags#STACK_TAG} = the stack, grouped by run.
 * Untagged resources are never listed, and those of another stack (or of none: made before the
 * stack tag) only counted, so nothing the janitor does can reach them. One tagged for this stack's
 * name but not for this deployment of it ({@value RunTags#STACK_ID_TAG}: an earlier stack of the
 * same name left it, or someone tagged it by hand) is unaccountable: reported, never touched.
 */
final class TaggedResources {
    /** One tagged resource: the run record's entry for it, its id, and its reference as events name it. */
    record Found(RunResources.Key<String> key, String id, String ref) {}

    /** A resource tagged for this stack that the janitor cannot tie to one of its runs, and why. */
    record Unaccountable(String ref, String why) {}

    /**
     * A stack's resources by run, how many resources of runs the janitor left alone as not its
     * stack's, and those it may not touch although they carry its name.
     */
    record Sweep(Map<String, List<Found>> byRun, int otherStacks, List<Unaccountable> unaccountable) {}

    private TaggedResources() {}

    /** {@code stackId} null: the deployment is not known, the stack's name decides. */
    static Sweep of(Clients clients, String stack, String stackId) {
        Map<String, List<Found>> byRun = new LinkedHashMap<>();
        int[] others = {0};
        List<Unaccountable> unaccountable = new ArrayList<>();
        Owner owner = new Owner(stack, stackId, others, unaccountable);
        var eks = clients.eks();
        for (String cluster : eks.listClustersPaginator(r -> {}).clusters()) {
            Map<String, String> tags;
            try {
                tags = eks.describeCluster(r -> r.name(cluster)).cluster().tags();
            } catch (ResourceNotFoundException gone) {
                continue;
            }
            String runId = owner.run(tags, "eks:cluster/" + cluster);
            if (runId == null) {
                continue;
            }
            List<Found> found = byRun.computeIfAbsent(runId, k -> new ArrayList<>());
            String system = Names.isValidRunId(runId) ? new Names(runId).systemNodeGroupName() : null;
            for (String nodegroup :
                    eks.listNodegroupsPaginator(r -> r.clusterName(cluster)).nodegroups()) {
                // The system node group has its own entry in the record, as the run itself writes it.
                RunResources.Key<String> key =
                        nodegroup.equals(system) ? RunResources.SYSTEM_NODE_GROUP : RunResources.NODE_GROUP;
                found.add(new Found(key, nodegroup, "eks:nodegroup/" + nodegroup));
            }
            found.add(new Found(RunResources.EKS_CLUSTER, cluster, "eks:cluster/" + cluster));
        }
        for (FileSystemDescription fs :
                clients.efs().describeFileSystemsPaginator(r -> {}).fileSystems()) {
            if (fs.lifeCycleState() == LifeCycleState.DELETED) {
                continue;
            }
            Map<String, String> tags = new LinkedHashMap<>();
            fs.tags().forEach((Tag t) -> tags.put(t.key(), t.value()));
            String runId = owner.run(tags, "efs:file-system/" + fs.fileSystemId());
            if (runId != null) {
                byRun.computeIfAbsent(runId, k -> new ArrayList<>())
                        .add(new Found(
                                RunResources.FILE_SYSTEM, fs.fileSystemId(), "efs:file-system/" + fs.fileSystemId()));
            }
        }
        for (var fs : clients.lustreFileSystems().list()) {
            if (!"LUSTRE".equals(fs.fileSystemType()) || "DELETING".equals(fs.lifecycle())) {
                continue;
            }
            String runId = owner.run(fs.tags(), "fsx:file-system/" + fs.fileSystemId());
            if (runId != null) {
                byRun.computeIfAbsent(runId, k -> new ArrayList<>())
                        .add(new Found(
                                RunResources.LUSTRE_FILE_SYSTEM,
                                fs.fileSystemId(),
                                "fsx:file-system/" + fs.fileSystemId()));
            }
        }
        Ec2Objects cloudControl = new Ec2Objects(clients.cloudControl());
        for (String logGroup : cloudControl.identifiers(ControlPlaneLogGroup.TYPE)) {
            // Only groups named like a run cluster's are read: an account has many log groups.
            if (ControlPlaneLogGroup.runCluster(logGroup).isEmpty()) {
                continue;
            }
            Optional<Map<String, String>> tags = cloudControl.tags(ControlPlaneLogGroup.TYPE, logGroup);
            String runId = tags.map(t -> owner.run(t, ControlPlaneLogGroup.REF_PREFIX + logGroup))
                    .orElse(null);
            if (runId != null) {
                byRun.computeIfAbsent(runId, k -> new ArrayList<>())
                        .add(new Found(RunResources.LOG_GROUP, logGroup, ControlPlaneLogGroup.REF_PREFIX + logGroup));
            }
        }
        return new Sweep(byRun, others[0], List.copyOf(unaccountable));
    }

    /** Sorts tagged resources: this stack's runs', another stack's (counted), and the unaccountable. */
    private record Owner(String stack, String stackId, int[] others, List<Unaccountable> unaccountable) {
        /** The run of a resource tagged for a run of this deployment of the stack; null otherwise. */
        String run(Map<String, String> tags, String ref) {
            String runId = tags == null ? null : tags.get(Names.RUN_ID_TAG);
            if (runId == null) {
                return null;
            }
            if (!stack.equals(tags.get(RunTags.STACK_TAG))) {
                others[0]++;
                return null;
            }
            String deployment = tags.get(RunTags.STACK_ID_TAG);
            if (stackId != null && !stackId.equals(deployment)) {
                unaccountable.add(new Unaccountable(
                        ref,
                        "it is tagged for stack " + stack + " but "
                                + (deployment == null
                                        ? "without " + RunTags.STACK_ID_TAG
                                        : "for its deployment " + deployment)
                                + ", not this one (" + stackId + "): an earlier stack of this name left it, or it"
                                + " was tagged by hand"));
                return null;
            }
            return runId;
        }
    }
}
