package io.trainplane.workflow;

import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.aws.ec2.ReservedCapacity;
import io.trainplane.aws.ec2.ResourceRequest;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.aws.eks.EksNodegroups;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The create calls of the node groups (the workers' and the system one) and of their launch
 * templates, shared by CheckCluster (the system node group's template), CreateNodegroup and
 * CheckNodegroup. The AWS parts come as suppliers, each asked for where it is first used.
 */
final class NodegroupPrerequisites {
    private NodegroupPrerequisites() {}

    /** The launch template, in the placement group when there is one; its request token goes into the record. */
    static void requestLaunchTemplate(
            RunContext run,
            RunStore store,
            Supplier<EksClusters> clusters,
            Supplier<Ec2Objects> ec2,
            Settings settings,
            Optional<String> placementGroup) {
        // EFA interfaces carry their own security groups: the cluster's, which admits the node-to-node traffic.
        String clusterGroup = clusters.get().describe(run.clusterName()).clusterSecurityGroupId();
        var request = ec2.get()
                .createLaunchTemplate(
                        run.names(),
                        RunTags.of(settings, run.names()),
                        run.spec().cluster().nodeGroup(),
                        placementGroup,
                        clusterGroup == null ? List.of() : List.of(clusterGroup));
        store.update(run.runId(), r -> {
            var withTemplate = r.withResource(RunResources.LAUNCH_TEMPLATE, request.requestToken());
            return placementGroup
                    .map(name -> withTemplate.withResource(RunResources.PLACEMENT_GROUP_NAME, name))
                    .orElse(withTemplate);
        });
    }

    /**
     * The subnets and security groups the node group gets: the stack's, or for a capacity
     * reservation only its subnets in the reservation's zone.
     *
     * @throws TerminalException when the node group cannot launch into its reservation (before
     *     anything is created: CreateNodegroup asks first)
     */
    static ClusterNetwork network(RunContext run, ReservedCapacity reservedCapacity, Settings settings) {
        return reservedCapacity.networkFor(run.spec().cluster().nodeGroup(), settings.network(), settings.region());
    }

    /**
     * The system node group's launch template ({@code Ec2DesiredState#systemLaunchTemplate}): the
     * request the record names, or a new one (its token then goes into the record). Asked for
     * again, Cloud Control answers the same client token with the same request.
     */
    static ResourceRequest systemLaunchTemplate(
            RunContext run, RunStore store, Supplier<Ec2Objects> ec2, Settings settings) {
        Optional<String> token = store.get(run.runId()).resources().get(RunResources.SYSTEM_LAUNCH_TEMPLATE);
        if (token.isPresent()) {
            return ec2.get().request(token.get());
        }
        // The system nodes pull the training image too (the data job runs it): the workers' root volume.
        var request = ec2.get()
                .createSystemLaunchTemplate(
                        run.names(),
                        RunTags.of(settings, run.names()),
                        run.spec().cluster().nodeGroup().diskGiB());
        store.update(run.runId(), r -> r.withResource(RunResources.SYSTEM_LAUNCH_TEMPLATE, request.requestToken()));
        return request;
    }

    /**
     * The created cluster's system node group, in the workers' subnets ({@code network}) with
     * their node role, once its launch template is ready (asked for here if the record names
     * none); recorded before the call, as the workers' node group is.
     *
     * @return empty once EKS was asked for the node group; else the launch template's state (not ready)
     */
    static Optional<ResourceState> createSystemNodegroup(
            RunContext run,
            RunStore store,
            Supplier<Ec2Objects> ec2,
            Supplier<EksNodegroups> nodegroups,
            Settings settings,
            Supplier<ClusterNetwork> network) {
        ResourceRequest template = systemLaunchTemplate(run, store, ec2, settings);
        if (!(template.state() instanceof ResourceState.Ready)) {
            return Optional.of(template.state());
        }
        String nodegroup = run.names().systemNodeGroupName();
        String templateId = template.identifier()
                .orElseThrow(() -> new TerminalException(
                        FailureReason.LaunchTemplateUnknown,
                        "Cloud Control reports the launch template of " + nodegroup + " created but names no id"));
        store.update(run.runId(), r -> r.withResource(RunResources.SYSTEM_NODE_GROUP, nodegroup)
                .withResource(RunResources.SYSTEM_LAUNCH_TEMPLATE_ID, templateId));
        nodegroups
                .get()
                .createSystem(
                        run.names(), RunTags.of(settings, run.names()), network.get(), settings.roles(), templateId);
        return Optional.empty();
    }

    static String createNodegroup(
            RunContext run,
            RunStore store,
            Supplier<EksNodegroups> nodegroups,
            Settings settings,
            ClusterNetwork network,
            String launchTemplateId) {
        String nodegroup = run.names().nodeGroupName();
        // Recorded before the call: if this Lambda dies after EKS accepted it, cleanup still finds the node group.
        store.update(run.runId(), r -> r.withResource(RunResources.NODE_GROUP, nodegroup)
                .withResource(RunResources.LAUNCH_TEMPLATE_ID, launchTemplateId));
        nodegroups
                .get()
                .create(
                        run.names(),
                        RunTags.of(settings, run.names()),
                        run.spec().cluster().nodeGroup(),
                        network,
                        settings.roles(),
                        launchTemplateId);
        return nodegroup;
    }
}
