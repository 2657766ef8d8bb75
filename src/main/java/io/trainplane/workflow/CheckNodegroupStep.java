package io.trainplane.workflow;

import io.trainplane.core.TerminalException;
import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.clients.Clients;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.ec2.ResourceRequest;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import java.util.Optional;

/**
 * Looks once at the node group (~4 min to ACTIVE). Before it exists, it moves its prerequisites
 * along: the placement group (EFA), then the launch template (always), then the node group itself.
 */
public final class CheckNodegroupStep implements Step {
    static final int WAIT_SECONDS = 30;
    static final int PREREQUISITE_WAIT_SECONDS = 15;

    private final Services services;
    private final Infrastructure infrastructure;

    public CheckNodegroupStep(Clients clients) {
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
        String nodegroup = run.names().nodeGroupName();
        RunRecord record = services.store().get(run.runId());
        ResourceState state = record.resources().has(RunResources.NODE_GROUP)
                ? infrastructure.nodegroups().state(run.clusterName(), nodegroup) : new ResourceState.Gone();
        if (state instanceof ResourceState.Gone) {
            // Not asked for yet, or asked for and the answer lost: asking again is the same request.
            Optional<ResourceRequest> placementGroup = request(record, RunResources.PLACEMENT_GROUP);
            if (placementGroup.isPresent() && !ready(placementGroup.get())) {
                return ResourceWait.look(placementGroup.get().state(), "placement group of " + nodegroup, PREREQUISITE_WAIT_SECONDS);
            }
            Optional<ResourceRequest> template = request(record, RunResources.LAUNCH_TEMPLATE);
            if (template.isEmpty()) {
                NodegroupPrerequisites.requestLaunchTemplate(run, services, infrastructure,
                        placementGroup.flatMap(ResourceRequest::identifier));
                return ResourceWait.look(new ResourceState.Creating("launch template requested"), nodegroup, PREREQUISITE_WAIT_SECONDS);
            }
            if (!ready(template.get())) {
                return ResourceWait.look(template.get().state(), "launch template of " + nodegroup, PREREQUISITE_WAIT_SECONDS);
            }
            String templateId = template.get().identifier().orElseThrow(() -> new TerminalException("LaunchTemplateUnknown",
                    "Cloud Control reports the launch template of " + nodegroup + " created but names no id"));
            NodegroupPrerequisites.createNodegroup(run, services, infrastructure, NodegroupPrerequisites.network(run, infrastructure),
                    templateId);
            state = infrastructure.nodegroups().state(run.clusterName(), nodegroup);
        }
        return ResourceWait.look(state, "EKS node group " + nodegroup, WAIT_SECONDS);
    }

    private Optional<ResourceRequest> request(RunRecord record, RunResources.Key<String> key) {
        return record.resources().get(key).map(infrastructure.ec2()::request);
    }

    private static boolean ready(ResourceRequest request) {
        return request.state() instanceof ResourceState.Ready;
    }
}
