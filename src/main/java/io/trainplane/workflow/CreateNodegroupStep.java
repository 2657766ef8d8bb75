package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.Clients;
import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.ec2.Ec2DesiredState;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.NodeGroupSpec;
import java.util.Optional;

/**
 * Starts the run's node group. A node group that launches into a capacity reservation is checked
 * against it first ({@code ReservedCapacity}: its zone's subnets only, its instance type, active).
 * A node group that needs a placement group (EFA outside a Capacity Block) or a launch template
 * (a capacity reservation, EFA) gets those first, through Cloud Control; CheckNodegroup then
 * creates the node group once they exist.
 */
public final class CreateNodegroupStep implements Step {
    private final Services services;
    private final Infrastructure infrastructure;

    public CreateNodegroupStep(Clients clients) {
        this.services = Services.of(clients);
        this.infrastructure = Infrastructure.of(clients);
    }

    /** The EKS client, as every invocation uses it. */
    @Override
    public void prime(RunContext sample, Clients offline) {
        offline.eks().describeNodegroup(r -> r.clusterName(sample.clusterName()).nodegroupName(sample.names().nodeGroupName()));
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        NodeGroupSpec nodeGroup = run.spec().cluster().nodeGroup();
        // A reservation the node group cannot launch into is refused before anything is created.
        ClusterNetwork network = NodegroupPrerequisites.network(run, infrastructure);
        if (Ec2DesiredState.needsPlacementGroup(nodeGroup)) {
            var request = infrastructure.ec2().createPlacementGroup(run.names());
            services.store().update(run.runId(), r -> r.withResource(RunResources.PLACEMENT_GROUP, request.requestToken()));
            return Json.object().put("waitingFor", "placement group");
        }
        if (Ec2DesiredState.needsLaunchTemplate(nodeGroup)) {
            NodegroupPrerequisites.requestLaunchTemplate(run, services, infrastructure, Optional.empty());
            return Json.object().put("waitingFor", "launch template");
        }
        return Json.object().put("nodegroup", NodegroupPrerequisites.createNodegroup(run, services, infrastructure, network, Optional.empty()));
    }
}
