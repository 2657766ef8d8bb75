package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.aws.ec2.ReservedCapacity;
import io.trainplane.core.Json;
import io.trainplane.runs.RunStore;
import java.util.function.Supplier;

/**
 * Starts the run's cluster ({@code cluster.mode: create}): first reads the node group's capacity
 * reservation, if it has one, and refuses one that cannot launch its nodes (too small, not active,
 * another type or zone: {@link ReservedCapacity}) before anything is created; then asks Cloud
 * Control for the cluster's control-plane log group, which must exist before EKS gets the cluster
 * ({@link io.trainplane.aws.ec2.ControlPlaneLogGroup}); CheckCluster then asks EKS for the cluster
 * and waits for it. CreateNodegroup reads the reservation again when it places the nodes.
 */
public final class CreateClusterStep implements Step {
    private final RunStore store;
    private final Supplier<Ec2Objects> ec2;
    private final Supplier<ReservedCapacity> reservedCapacity;
    private final Settings settings;

    /** Cloud Control as suppliers: its SDK client is built on first use, as every client is. */
    public CreateClusterStep(
            RunStore store, Supplier<Ec2Objects> ec2, Supplier<ReservedCapacity> reservedCapacity, Settings settings) {
        this.store = store;
        this.ec2 = ec2;
        this.reservedCapacity = reservedCapacity;
        this.settings = settings;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        if (run.spec().cluster().nodeGroup().capacityReservationId() != null) {
            NodegroupPrerequisites.network(run, reservedCapacity.get(), settings);
        }
        ClusterCreation.requestLogGroup(run, store, ec2, settings);
        return Json.object().put("name", run.names().clusterName()).put("waitingFor", "log group");
    }
}
