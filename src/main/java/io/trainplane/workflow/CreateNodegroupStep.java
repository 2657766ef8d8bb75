package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.Ec2DesiredState;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.aws.ec2.ReservedCapacity;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.aws.eks.EksNodegroups;
import io.trainplane.core.Json;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.NodeGroupSpec;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Starts the run's node groups: the system node group (CoreDNS, the add-ons' controllers, the
 * data job) at once, its launch template being ready since CheckCluster asked for it, and the workers'. A node group that launches into a capacity reservation is checked
 * against it first ({@code ReservedCapacity}: its zone's subnets only, its instance type, active).
 * Then its placement group when it needs one (EFA outside a Capacity Block), then its launch
 * template (every node group has one: the nodes' metadata options, a capacity reservation, EFA),
 * through Cloud Control; CheckNodegroup then creates the node group once they exist.
 */
public final class CreateNodegroupStep implements Step {
    private final RunStore store;
    private final Supplier<ReservedCapacity> reservedCapacity;
    private final Supplier<Ec2Objects> ec2;
    private final Supplier<EksClusters> clusters;
    private final Supplier<EksNodegroups> nodegroups;
    private final Settings settings;

    /** The AWS parts as suppliers: their SDK clients are built on first use (a placement group needs no EKS). */
    public CreateNodegroupStep(
            RunStore store,
            Supplier<ReservedCapacity> reservedCapacity,
            Supplier<Ec2Objects> ec2,
            Supplier<EksClusters> clusters,
            Supplier<EksNodegroups> nodegroups,
            Settings settings) {
        this.store = store;
        this.reservedCapacity = reservedCapacity;
        this.ec2 = ec2;
        this.clusters = clusters;
        this.nodegroups = nodegroups;
        this.settings = settings;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        NodeGroupSpec nodeGroup = run.spec().cluster().nodeGroup();
        // A reservation the node group cannot launch into is refused before anything is created.
        ClusterNetwork network = NodegroupPrerequisites.network(run, reservedCapacity.get(), settings);
        // Started first, it is ready by the time the workers' node group is. A launch template
        // still being created is CheckNodegroup's to wait for; one that failed fails the run now.
        NodegroupPrerequisites.createSystemNodegroup(run, store, ec2, nodegroups, settings, () -> network)
                .filter(template -> !(template instanceof ResourceState.Creating))
                .ifPresent(template -> ResourceWait.look(
                        template,
                        "launch template of EKS system node group "
                                + run.names().systemNodeGroupName(),
                        0));
        if (Ec2DesiredState.needsPlacementGroup(nodeGroup)) {
            var request = ec2.get().createPlacementGroup(run.names(), RunTags.of(settings, run.names()));
            store.update(run.runId(), r -> r.withResource(RunResources.PLACEMENT_GROUP, request.requestToken()));
            return Json.object().put("waitingFor", "placement group");
        }
        NodegroupPrerequisites.requestLaunchTemplate(run, store, clusters, ec2, settings, Optional.empty());
        return Json.object().put("waitingFor", "launch template");
    }
}
