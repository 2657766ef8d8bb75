package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.aws.ec2.ReservedCapacity;
import io.trainplane.aws.ec2.ResourceRequest;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.aws.eks.EksNodegroups;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Looks once at the node groups (~4 min to ACTIVE). Before the workers' exists, it moves its
 * prerequisites along: the placement group (EFA), then the launch template (always), then the node
 * group itself. The system node group waits only for its own launch template, which CheckCluster
 * asked for and is ready long before. What it waits for is the state's ({@link #WAIT_FOR}): the
 * system node group ACTIVE with the workers' asked for (the data job runs meanwhile), or both ACTIVE.
 */
public final class CheckNodegroupStep implements Step {
    static final int WAIT_SECONDS = 30;
    static final int PREREQUISITE_WAIT_SECONDS = 15;
    /** In the input: {@link #SYSTEM_NODES} or {@link #ALL_NODES} (the default). */
    static final String WAIT_FOR = "waitFor";
    /** Done when the system node group is ACTIVE and the workers' node group has been asked for. */
    static final String SYSTEM_NODES = "system";
    /** Done when both node groups are ACTIVE. */
    static final String ALL_NODES = "all";

    private final RunStore store;
    private final Supplier<EksNodegroups> nodegroups;
    private final Supplier<Ec2Objects> ec2;
    private final Supplier<EksClusters> clusters;
    private final Supplier<ReservedCapacity> reservedCapacity;
    private final Settings settings;

    /** The AWS parts as suppliers: each look uses some of them, and their SDK clients are built on first use. */
    public CheckNodegroupStep(
            RunStore store,
            Supplier<EksNodegroups> nodegroups,
            Supplier<Ec2Objects> ec2,
            Supplier<EksClusters> clusters,
            Supplier<ReservedCapacity> reservedCapacity,
            Settings settings) {
        this.store = store;
        this.nodegroups = nodegroups;
        this.ec2 = ec2;
        this.clusters = clusters;
        this.reservedCapacity = reservedCapacity;
        this.settings = settings;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        RunRecord record = store.get(run.runId());
        // Looked at first: a failed system node group fails the run even while the workers' still waits.
        ObjectNode system = systemNodegroup(run, record);
        ObjectNode workers = workerNodegroup(run, record);
        boolean workersDone = SYSTEM_NODES.equals(input.path(WAIT_FOR).asText())
                // Asked for before this look, or by it (the record is read again only then).
                ? record.resources().has(RunResources.NODE_GROUP)
                        || store.get(run.runId()).resources().has(RunResources.NODE_GROUP)
                : workers.path("done").asBoolean();
        return workersDone ? system : workers;
    }

    /**
     * The system node group's state, created (or adopted) when the record does not list it or it
     * is gone; before that, its launch template's while it is not ready.
     */
    private ObjectNode systemNodegroup(RunContext run, RunRecord record) {
        String nodegroup = run.names().systemNodeGroupName();
        ResourceState state = record.resources().has(RunResources.SYSTEM_NODE_GROUP)
                ? nodegroups.get().state(run.clusterName(), nodegroup)
                : new ResourceState.Gone();
        if (state instanceof ResourceState.Gone) {
            // Not asked for yet (its template was not ready), or asked for and the answer lost:
            // asking again is the same request.
            Optional<ResourceState> template = NodegroupPrerequisites.createSystemNodegroup(
                    run,
                    store,
                    ec2,
                    nodegroups,
                    settings,
                    () -> NodegroupPrerequisites.network(run, reservedCapacity.get(), settings));
            if (template.isPresent()) {
                return ResourceWait.look(
                        template.get(),
                        "launch template of EKS system node group " + nodegroup,
                        PREREQUISITE_WAIT_SECONDS);
            }
            state = nodegroups.get().state(run.clusterName(), nodegroup);
        }
        return ResourceWait.look(state, "EKS system node group " + nodegroup, WAIT_SECONDS);
    }

    private ObjectNode workerNodegroup(RunContext run, RunRecord record) {
        String nodegroup = run.names().nodeGroupName();
        ResourceState state = record.resources().has(RunResources.NODE_GROUP)
                ? nodegroups.get().state(run.clusterName(), nodegroup)
                : new ResourceState.Gone();
        if (state instanceof ResourceState.Gone) {
            // Not asked for yet, or asked for and the answer lost: asking again is the same request.
            Optional<ResourceRequest> placementGroup = request(record, RunResources.PLACEMENT_GROUP);
            if (placementGroup.isPresent() && !ready(placementGroup.get())) {
                return ResourceWait.look(
                        placementGroup.get().state(), "placement group of " + nodegroup, PREREQUISITE_WAIT_SECONDS);
            }
            Optional<ResourceRequest> template = request(record, RunResources.LAUNCH_TEMPLATE);
            if (template.isEmpty()) {
                NodegroupPrerequisites.requestLaunchTemplate(
                        run, store, clusters, ec2, settings, placementGroup.flatMap(ResourceRequest::identifier));
                return ResourceWait.look(
                        new ResourceState.Creating("launch template requested"), nodegroup, PREREQUISITE_WAIT_SECONDS);
            }
            if (!ready(template.get())) {
                return ResourceWait.look(
                        template.get().state(), "launch template of " + nodegroup, PREREQUISITE_WAIT_SECONDS);
            }
            String templateId = template.get()
                    .identifier()
                    .orElseThrow(() -> new TerminalException(
                            FailureReason.LaunchTemplateUnknown,
                            "Cloud Control reports the launch template of " + nodegroup + " created but names no id"));
            NodegroupPrerequisites.createNodegroup(
                    run,
                    store,
                    nodegroups,
                    settings,
                    NodegroupPrerequisites.network(run, reservedCapacity.get(), settings),
                    templateId);
            state = nodegroups.get().state(run.clusterName(), nodegroup);
        }
        return ResourceWait.look(state, "EKS node group " + nodegroup, WAIT_SECONDS);
    }

    private Optional<ResourceRequest> request(RunRecord record, RunResources.Key<String> key) {
        return record.resources().get(key).map(token -> ec2.get().request(token));
    }

    private static boolean ready(ResourceRequest request) {
        return request.state() instanceof ResourceState.Ready;
    }
}
