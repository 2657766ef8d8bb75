package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.core.Json;
import io.trainplane.runs.RunStore;
import java.util.function.Supplier;

/**
 * Starts the run's cluster ({@code cluster.mode: create}): asks Cloud Control for the cluster's
 * control-plane log group, which must exist before EKS gets the cluster
 * ({@link io.trainplane.aws.ec2.ControlPlaneLogGroup}); CheckCluster then asks EKS for the
 * cluster and waits for it.
 */
public final class CreateClusterStep implements Step {
    private final RunStore store;
    private final Supplier<Ec2Objects> ec2;
    private final Settings settings;

    /** Cloud Control as a supplier: its SDK client is built on first use, as every client is. */
    public CreateClusterStep(RunStore store, Supplier<Ec2Objects> ec2, Settings settings) {
        this.store = store;
        this.ec2 = ec2;
        this.settings = settings;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        ClusterCreation.requestLogGroup(run, store, ec2, settings);
        return Json.object().put("name", run.names().clusterName()).put("waitingFor", "log group");
    }
}
