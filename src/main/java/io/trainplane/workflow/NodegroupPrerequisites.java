package io.trainplane.workflow;

import io.trainplane.aws.ClusterNetwork;
import io.trainplane.runs.RunResources;
import java.util.List;
import java.util.Optional;

/** The create calls of a node group and its launch template, shared by CreateNodegroup and CheckNodegroup. */
final class NodegroupPrerequisites {
    private NodegroupPrerequisites() {}

    /** The launch template, in the placement group when there is one; its request token goes into the record. */
    static void requestLaunchTemplate(RunContext run, Services services, Infrastructure infrastructure,
                                      Optional<String> placementGroup) {
        // EFA interfaces carry their own security groups: the cluster's, which admits the node-to-node traffic.
        String clusterGroup = infrastructure.clusters().describe(run.clusterName()).clusterSecurityGroupId();
        var request = infrastructure.ec2().createLaunchTemplate(run.names(), infrastructure.tags(run.names()),
                run.spec().cluster().nodeGroup(), placementGroup, clusterGroup == null ? List.of() : List.of(clusterGroup));
        services.store().update(run.runId(), r -> r.withResource(RunResources.LAUNCH_TEMPLATE, request.requestToken()));
    }

    /**
     * The subnets and security groups the node group gets: the stack's, or for a capacity
     * reservation only its subnets in the reservation's zone.
     *
     * @throws TerminalException when the node group cannot launch into its reservation (before
     *     anything is created: CreateNodegroup asks first)
     */
    static ClusterNetwork network(RunContext run, Infrastructure infrastructure) {
        return infrastructure.reservedCapacity().networkFor(run.spec().cluster().nodeGroup(),
                infrastructure.settings().network(), infrastructure.settings().region());
    }

    static String createNodegroup(RunContext run, Services services, Infrastructure infrastructure,
                                  ClusterNetwork network, String launchTemplateId) {
        String nodegroup = run.names().nodeGroupName();
        // Recorded before the call: if this Lambda dies after EKS accepted it, cleanup still finds the node group.
        services.store().update(run.runId(), r -> r.withResource(RunResources.NODE_GROUP, nodegroup));
        infrastructure.nodegroups().create(run.names(), infrastructure.tags(run.names()), run.spec().cluster().nodeGroup(),
                network, infrastructure.settings().roles(), launchTemplateId);
        return nodegroup;
    }
}
