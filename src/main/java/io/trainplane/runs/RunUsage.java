package io.trainplane.runs;

import io.trainplane.aws.RunPrices;
import io.trainplane.aws.UsagePrices;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.spec.DataSource;
import io.trainplane.spec.NodeDisk;
import io.trainplane.spec.NodeGroupSpec;
import io.trainplane.spec.RunSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * What a run pays for besides its nodes' hours, its control plane, its volume and its workflow:
 * the nodes' root volumes, the control plane's logs, the NAT gateway's processing of what the
 * nodes pull, and the run's S3 outputs. The plan ({@link CostEstimate}) and the run's actual cost
 * (workflow's ActualCost) both price these lines from here, for their own hours.
 *
 * <p>The run's subnets are the stack's ({@code SubnetIds}): a route to the internet through a NAT
 * gateway is assumed, whose hours are billed to the VPC whether or not runs go; a run pays its
 * data processing. Pulls from the internet come in free; through VPC endpoints they would cost
 * the endpoints' processing instead.
 */
public final class RunUsage {
    /**
     * EKS control-plane logs (api, audit, authenticator: the cluster's {@code logging}) of a
     * cluster as small as a run's, in GB an hour: an estimate, the audit log being most of it.
     */
    public static final double CONTROL_PLANE_LOG_GB_PER_HOUR = 0.05;
    /** What a run keeps in S3: model.pt, the metrics and the checkpoints (an estimate), priced for the first month. */
    public static final double S3_OUTPUT_GB = 0.5;

    public static final double S3_STORED_MONTHS = 1.0;
    /** PUTs: each epoch's checkpoint and its .sha256; the model, metrics, summary and code, about 10. */
    public static final int S3_PUTS_PER_EPOCH = 2;

    public static final int S3_FIXED_PUTS = 10;
    /** GETs: the code, a resumed checkpoint, the results read back, about 10. */
    public static final int S3_FIXED_GETS = 10;

    /** Container logs: read from the pods by {@code trainplane logs} and kept in the run record's log tail, not sent to CloudWatch. */
    public static final String CONTAINER_LOGS =
            "container logs: read from the pods (trainplane logs) and the run record's log tail, not shipped to"
                    + " CloudWatch Logs: no ingestion";

    private RunUsage() {}

    /**
     * What the lines are priced for: the workers' and the system nodes' node-hours (root volumes),
     * the created cluster's hours (its logs), the training's hours (checkpoint syncs), the GB the
     * nodes pulled through the NAT gateway ({@link #pulledGB}) and whether the run wrote outputs.
     * A line whose quantity is 0 is left out.
     */
    public record Hours(
            double workerNodes,
            double systemNodes,
            double cluster,
            double training,
            double pulledGB,
            boolean outputs) {}
    /** The lines of {@code spec}'s run for {@code hours}. */
    public static List<CostEstimate.Line> lines(RunSpec spec, RunPrices prices, Hours hours) {
        UsagePrices p = prices.usage();
        List<CostEstimate.Line> lines = new ArrayList<>();
        boolean create = spec.cluster().created();
        if (create && hours.workerNodes() + hours.systemNodes() > 0) {
            NodeGroupSpec workers = spec.cluster().nodeGroup();
            NodeGroupSpec system = EksRequests.systemNodeGroup();
            lines.add(new CostEstimate.Line(
                    "EBS gp3 root volumes",
                    (workers.diskGiB() * hours.workerNodes() + system.diskGiB() * hours.systemNodes())
                            / CostEstimate.HOURS_PER_MONTH,
                    "GB-month",
                    p.ebsGp3PerGbMonth()));
        }
        if (create && hours.cluster() > 0) {
            lines.add(new CostEstimate.Line(
                    "CloudWatch Logs, control plane",
                    CONTROL_PLANE_LOG_GB_PER_HOUR * hours.cluster(),
                    "GB ingested",
                    p.logsIngestionPerGb()));
        }
        double pulled = hours.pulledGB();
        if (pulled > 0) {
            lines.add(new CostEstimate.Line(
                    "NAT gateway processing, pulls", pulled, "GB processed", p.natGatewayPerGb()));
            lines.add(
                    new CostEstimate.Line("Data transfer in from the internet", pulled, "GB", p.dataTransferInPerGb()));
        }
        if (!hours.outputs()) {
            return List.copyOf(lines);
        }
        lines.add(new CostEstimate.Line(
                "S3 storage, outputs (first month)",
                S3_OUTPUT_GB * S3_STORED_MONTHS,
                "GB-month",
                p.s3().standardPerGbMonth()));
        int epochs = spec.workload().epochs(spec.training().epochs());
        double syncs = Math.ceil(hours.training() * 3600 / WorkloadManifests.CHECKPOINT_SYNC_SECONDS);
        lines.add(new CostEstimate.Line(
                "S3 PUT and LIST requests",
                (S3_FIXED_PUTS + S3_PUTS_PER_EPOCH * epochs + syncs) / 1000.0,
                "1,000 requests",
                p.s3().putPer1000()));
        lines.add(new CostEstimate.Line(
                "S3 GET requests", S3_FIXED_GETS / 1000.0, "1,000 requests", p.s3().getPer1000()));
        return List.copyOf(lines);
    }

    /**
     * What the run's nodes pull through the NAT gateway, in GB: each new node the training image
     * (compressed, {@link NodeDisk#compressedGB}) and Trainplane's own images, and the dataset
     * once (none for synthetic data; an S3 dataset is pulled through the NAT gateway too, unless
     * the VPC has an S3 gateway endpoint).
     */
    public static double pulledGB(RunSpec spec) {
        int nodes = spec.cluster().created()
                ? spec.cluster().nodeGroup().nodes()
                        + EksRequests.systemNodeGroup().nodes()
                : spec.cluster().warm()
                        ? spec.cluster().warmNodes(spec.training().workers())
                        : 0;
        double images = nodes * (NodeDisk.compressedGB(spec.training().image()) + NodeDisk.OWN_IMAGES_GB);
        double data = spec.data().source() == DataSource.SYNTHETIC ? 0 : CostEstimate.EFS_DATASET_GB;
        return images + data;
    }

    /** The assumptions behind the lines, for the plan's list. */
    public static List<String> assumptions(RunSpec spec) {
        List<String> assumptions = new ArrayList<>();
        if (spec.cluster().created()) {
            NodeGroupSpec workers = spec.cluster().nodeGroup();
            NodeGroupSpec system = EksRequests.systemNodeGroup();
            assumptions.add(String.format(
                    "root volumes: gp3, %d GiB on each worker node, %d GiB on each system node, while the nodes run;"
                            + " control-plane logs: %.2f GB an hour ingested",
                    workers.diskGiB(), system.diskGiB(), CONTROL_PLANE_LOG_GB_PER_HOUR));
        }
        assumptions.addAll(List.of(
                String.format(
                        "NAT and data: the subnets reach the internet through a NAT gateway (its hours are the VPC's);"
                                + " the nodes pull %.1f GB of images and data through it",
                        pulledGB(spec)),
                String.format(
                        "S3: %.1f GB of outputs kept (priced for the first month; kept until you delete them),"
                                + " a checkpoint sync every %d s while training",
                        S3_OUTPUT_GB, WorkloadManifests.CHECKPOINT_SYNC_SECONDS),
                CONTAINER_LOGS));
        return List.copyOf(assumptions);
    }
}
