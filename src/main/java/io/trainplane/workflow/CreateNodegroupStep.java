package io.trainplane.workflow;

import io.trainplane.core.Json;
import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.clients.Clients;
import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.ec2.Ec2DesiredState;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.NodeGroupSpec;
import java.util.Optional;

/**
 * Starts the run's node group. A node group that launches into a capacity reservation is checked
 * against it first ({@code ReservedCapacity}: its zone's subnets only, its instance type, active).
 * Then its placement group when it needs one (EFA outside a Capacity Block), then its launch
 * template (every node group has one: the nodes' metadata options, a capacity reservation, EFA),
 * through Cloud Control; CheckNodegroup then creates the node group once they exist.
 */
public final class CreateNodegroupStep implements Step {
    private final Services services;
    private final Infrastructure infrastructure;

    public CreateNodegroupStep(Clients clients) {
        this.services = Services.of(clients);
        this.infrastructure = Infrastructure.of(clients);
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        NodeGroupSpec nodeGroup = run.spec().cluster().nodeGroup();
        // A reservation the node group cannot launch into is refused before anything is created.
        ClusterNetwork network = NodegroupPrerequisites.network(run, infrastructure);
        if (Ec2DesiredState.needsPlacementGroup(nodeGroup)) {
            var request = infrastructure.ec2().createPlacementGroup(run.names(), infrastructure.tags(run.names()));
            services.store().update(run.runId(), r -> r.withResource(RunResources.PLACEMENT_GROUP, request.requestToken()));
            return Json.object().put("waitingFor", "placement group");
        }
        NodegroupPrerequisites.requestLaunchTemplate(run, services, infrastructure, Optional.empty());
        return Json.object().put("waitingFor", "launch template");
    }
}
