package io.trainplane.workflow;

import io.trainplane.aws.RunPrices;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.runs.CostEstimate;
import io.trainplane.runs.PastEpochs;
import io.trainplane.runs.RunCost;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunUsage;
import io.trainplane.runs.StepEntry;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.spec.NodeGroupSpec;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import io.trainplane.spec.VolumeType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a run really used, from facts the workflow saw, priced with the plan's table ({@link
 * RunPrices}): the same items as the plan's estimate, so that the two can be set side by side.
 *
 * <ul>
 *   <li>Nodes and control plane: from the start of the step that created them (CreateNodegroup,
 *       CreateCluster) to the end of cleanup ({@link RunResources#CLEANUP_FINISHED}, else the
 *       run's end); the workers' nodes only to ReleaseWorkers plus {@link #WORKERS_DRAIN_LIMIT}
 *       when the run got there. EC2 bills from an instance's launch, which follows the request, to
 *       its termination: the span covers both, so it never undercounts.
 *   <li>A SPOT node group at the highest typical spot price of its types (EC2 picks the type; the
 *       run does not record which), as the plan does.
 *   <li>EFS: GB-hours of the plan's assumed stored size ({@link CostEstimate#EFS_STORED_GB}), the simulated
 *       and the real file system's metered size not being read by the workflow; reads and writes
 *       as the plan assumes them.
 *   <li>Root volumes, control-plane logs, NAT processing and S3 ({@link RunUsage}): the plan's
 *       quantities for the node-hours, cluster hours and training time the timeline shows.
 *   <li>A Capacity Block's nodes are unpriced: the block is paid up front at a rate the table
 *       does not have.
 *   <li>Step Functions transitions and Lambda: the timeline records each step once it is done, not
 *       each poll, so the polls are estimated (one every {@link #POLL_SECONDS} of the run), and each
 *       invocation is billed as the plan assumes; the exact transitions are in the execution's
 *       history (GetExecutionHistory), which the workflow does not read.
 * </ul>
 */
public final class ActualCost {
    /**
     * The poll loops' Waits last from 10 s to 2 minutes: one poll every 30 s of the run, estimated
     * (the quickstart's local run: 247 transitions estimated, 259 counted by the local executor).
     */
    static final double POLL_SECONDS = 30.0;
    /** Step Functions: a recorded step's Task and the state after it; a poll's Task, Choice and Wait. */
    static final int TRANSITIONS_PER_STEP = 2;

    /** The state that scales a warm node group out for the run (Pipeline). */
    static final String SCALE_UP_WORKERS = "ScaleUpWorkers";

    /** The state that deletes the workers' node group once the evaluation is done (Pipeline). */
    static final String RELEASE_WORKERS = "ReleaseWorkers";
    /**
     * The longest a node of a node group being deleted is drained before Auto Scaling terminates its
     * instance, which ends its billing
     * (https://docs.aws.amazon.com/eks/latest/userguide/delete-managed-node-group.html): the workers
     * are priced to ReleaseWorkers plus this, which never undercounts.
     */
    static final Duration WORKERS_DRAIN_LIMIT = Duration.ofMinutes(5);

    private ActualCost() {}

    /** The cost of {@code run}, whose timeline is {@code steps}, ended at {@code end} (used when cleanup did not record its end). */
    public static RunCost of(RunRecord run, List<StepEntry> steps, Instant end, RunPrices prices) {
        RunSpec spec = RunSpecs.fromNormalized(run.specJson());
        Instant finished = run.resources().get(RunResources.CLEANUP_FINISHED).orElse(end);
        if (finished.isBefore(run.createdAt())) {
            finished = run.createdAt();
        }
        List<RunCost.Line> lines = new ArrayList<>();
        List<String> basis = new ArrayList<>();
        Optional<Instant> clusterSince = startOf(steps, Pipeline.CREATE_CLUSTER.name());
        Optional<Instant> nodesSince = startOf(steps, Pipeline.CREATE_NODEGROUP.name());
        double workerNodeHours = 0;
        double systemNodeHours = 0;
        double clusterHours = 0;
        if (spec.cluster().created()) {
            basis.add("nodes and control plane: from their creation request to the end of cleanup");
            if (nodesSince.isPresent()) {
                double hours = hours(nodesSince.get(), finished);
                NodeGroupSpec nodes = spec.cluster().nodeGroup();
                boolean spot = nodes.capacityType() == CapacityType.SPOT;
                Instant cleanedUp = finished;
                Optional<Instant> released = startOf(steps, RELEASE_WORKERS)
                        .map(at -> at.plus(WORKERS_DRAIN_LIMIT))
                        .filter(until -> until.isBefore(cleanedUp));
                if (released.isPresent()) {
                    basis.add("worker nodes: until ReleaseWorkers asked for their deletion, plus the "
                            + WORKERS_DRAIN_LIMIT.toMinutes() + " minutes EKS gives a node to drain before its"
                            + " instance is terminated");
                }
                boolean block = nodes.capacityType() == CapacityType.CAPACITY_BLOCK;
                workerNodeHours = nodes.nodes() * hours(nodesSince.get(), released.orElse(finished));
                systemNodeHours = EksRequests.systemNodeGroup().nodes() * hours;
                lines.add(line(
                        "EC2 " + nodes.nodes() + " × " + String.join("|", nodes.types()) + (spot ? " (spot)" : "")
                                + (block ? " (Capacity Block)" : ""),
                        workerNodeHours,
                        "node-hour",
                        block
                                ? prices.capacityBlockPerHour(nodes.firstType())
                                : prices.instances().nodePerHour(nodes).orElse(null)));
                if (block) {
                    basis.add(CostEstimate.capacityBlock(nodes, prices));
                }
                if (spot) {
                    basis.add("spot nodes at the highest typical spot price of their types, as the plan");
                }
                NodeGroupSpec system = EksRequests.systemNodeGroup();
                lines.add(line(
                        "EC2 " + system.nodes() + " × " + system.instanceType() + " (system)",
                        system.nodes() * hours,
                        "node-hour",
                        prices.instances().perHour(system.instanceType()).orElse(null)));
            }
            if (clusterSince.isPresent()) {
                boolean extended = KubernetesVersions.support(
                                spec.cluster().kubernetesVersion(), KubernetesVersions.day(run.createdAt()))
                        == KubernetesVersions.Support.EXTENDED;
                clusterHours = hours(clusterSince.get(), finished);
                lines.add(line(
                        extended ? "EKS control plane, extended support" : "EKS control plane",
                        clusterHours,
                        "hour",
                        extended ? prices.eksExtendedSupportControlPlanePerHour() : prices.eksControlPlanePerHour()));
            }
        } else if (spec.cluster().warm()) {
            basis.add("warm cluster: its control plane and other nodes are billed to the cluster; the warm node group's"
                    + " nodes from the run's scale-out to ReleaseWorkers plus " + WORKERS_DRAIN_LIMIT.toMinutes()
                    + " minutes (else the end of cleanup)");
            Optional<Instant> scaledOut = startOf(steps, SCALE_UP_WORKERS);
            Optional<String> type = run.resources().get(RunResources.WARM_INSTANCE_TYPE);
            if (scaledOut.isPresent() && type.isPresent()) {
                Instant cleanedUp = finished;
                Instant until = startOf(steps, RELEASE_WORKERS)
                        .map(at -> at.plus(WORKERS_DRAIN_LIMIT))
                        .filter(at -> at.isBefore(cleanedUp))
                        .orElse(finished);
                int nodes = spec.cluster().warmNodes(spec.training().workers());
                lines.add(line(
                        "EC2 " + nodes + " × " + type.get() + " (warm node group)",
                        nodes * hours(scaledOut.get(), until),
                        "node-hour",
                        prices.instances().perHour(type.get()).orElse(null)));
            }
        } else {
            basis.add("existing cluster: its nodes and control plane are billed to the cluster, not to the run");
        }
        Optional<Instant> volumeSince = startOf(steps, Pipeline.CREATE_VOLUME.name());
        if (spec.volume().type() == VolumeType.EFS && volumeSince.isPresent()) {
            double hours = hours(volumeSince.get(), finished);
            lines.add(line(
                    "EFS storage",
                    CostEstimate.EFS_STORED_GB * hours / CostEstimate.HOURS_PER_MONTH,
                    "GB-month",
                    prices.efsStoragePerGbMonth()));
            lines.add(line(
                    "EFS elastic throughput, writes",
                    CostEstimate.EFS_WRITTEN_GB,
                    "GB",
                    prices.efsElasticWritePerGb()));
            lines.add(line(
                    "EFS elastic throughput, reads",
                    CostEstimate.EFS_DATASET_GB * (spec.training().epochs() + 1),
                    "GB",
                    prices.efsElasticReadPerGb()));
            basis.add("EFS: the plan's " + CostEstimate.EFS_STORED_GB
                    + " GB stored from CreateVolume to the end of cleanup,"
                    + " and its reads and writes (the metered size is not read)");
        }
        if (spec.volume().type() == VolumeType.FSX_LUSTRE
                && spec.volume().fileSystemId() == null
                && volumeSince.isPresent()) {
            lines.add(line(
                    spec.volume().lustreDescription(),
                    spec.volume().lustreStorageCapacityGiB()
                            * hours(volumeSince.get(), finished)
                            / CostEstimate.HOURS_PER_MONTH,
                    "GB-month",
                    prices.fsxLustrePerGbMonth(spec.volume())));
            basis.add("FSx for Lustre: its whole capacity from CreateVolume to the end of cleanup (FSx bills the"
                    + " capacity, prorated by the second)");
        }
        double trainingHours = PastEpochs.trainingSeconds(steps).orElse(0.0) / 3600.0;
        // Images are pulled by the nodes the run started; the data and outputs by a run that got to them.
        boolean nodesStarted = nodesSince.isPresent()
                || (spec.cluster().warm() && startOf(steps, SCALE_UP_WORKERS).isPresent());
        boolean outputs = startOf(steps, PastEpochs.START_TRAINING).isPresent();
        double pulled = nodesStarted ? RunUsage.pulledGB(spec) : 0;
        for (CostEstimate.Line usage : RunUsage.lines(
                spec,
                prices,
                new RunUsage.Hours(workerNodeHours, systemNodeHours, clusterHours, trainingHours, pulled, outputs))) {
            lines.add(line(usage.item(), usage.quantity(), usage.unit(), usage.unitPrice()));
        }
        if (nodesStarted || outputs) {
            basis.addAll(RunUsage.assumptions(spec));
        }
        double runSeconds = Duration.between(run.createdAt(), finished).toMillis() / 1000.0;
        double polls = Math.ceil(runSeconds / POLL_SECONDS);
        double invocations = steps.size() + polls;
        lines.add(line(
                "Step Functions transitions",
                (TRANSITIONS_PER_STEP * steps.size() + CostEstimate.TRANSITIONS_PER_POLL * polls) / 1000.0,
                "1,000 transitions",
                prices.stepFunctionsPer1000Transitions()));
        lines.add(line(
                "Lambda",
                invocations * CostEstimate.LAMBDA_SECONDS * CostEstimate.LAMBDA_GB,
                "GB-s",
                prices.lambdaPerGbSecond()));
        basis.add(String.format(
                "transitions and Lambda: %d recorded steps and %.0f polls estimated at one every %.0f s, each"
                        + " invocation billed %.0f s as the plan assumes",
                steps.size(), polls, POLL_SECONDS, CostEstimate.LAMBDA_SECONDS));
        double total = lines.stream()
                .filter(l -> l.cost() != null)
                .mapToDouble(RunCost.Line::cost)
                .sum();
        return new RunCost(prices.describe(), round(runSeconds / 3600.0), lines, round(total), basis);
    }

    private static RunCost.Line line(String item, double quantity, String unit, Double unitPrice) {
        double q = round(quantity);
        return new RunCost.Line(item, q, unit, unitPrice, unitPrice == null ? null : round(quantity * unitPrice));
    }

    /** The start of the first successful step of that name: when the resource was asked for. */
    private static Optional<Instant> startOf(List<StepEntry> steps, String state) {
        return steps.stream()
                .filter(s -> s.state().equals(state) && ("ok".equals(s.outcome()) || "succeeded".equals(s.outcome())))
                .map(StepEntry::started)
                .min(Instant::compareTo);
    }

    private static double hours(Instant from, Instant to) {
        return to.isBefore(from) ? 0 : Duration.between(from, to).toMillis() / 3_600_000.0;
    }

    static double round(double v) {
        return Math.round(v * 1_000_000.0) / 1_000_000.0;
    }
}
