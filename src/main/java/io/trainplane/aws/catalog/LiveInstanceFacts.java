package io.trainplane.aws.catalog;

import io.trainplane.aws.InstancePrices;
import io.trainplane.aws.RunPrices;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.ClusterSpec;
import io.trainplane.spec.InstanceShapes;
import io.trainplane.spec.NodeGroupSpec;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.SpecProblem;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A run's instance types as EC2 and the Price List answer today, asked before anything is created
 * (StartRun, {@code plan --stack}, {@code start --stack}): the offline catalog and price table
 * may be older. A type EC2 does not know is refused; the spec's GPUs per node and EFA are checked
 * again against EC2's own description; with {@code priced}, the run's types are priced from the
 * Price List (Spot from the Spot price history, a Capacity Block at its cheapest offering) over
 * the snapshot's prices.
 */
public final class LiveInstanceFacts {
    /** How far back a Spot price counts: EC2 keeps 90 days of history; a day gives each zone's latest. */
    static final Duration SPOT_WINDOW = Duration.ofDays(1);

    /** What the lookups found: the prices to judge the run by, and what in the spec EC2's answer refutes. */
    public record Checked(RunPrices prices, List<SpecProblem> problems) {
        public Checked {
            problems = List.copyOf(problems);
        }
    }

    private LiveInstanceFacts() {}

    public static Checked check(RunSpec run, RunPrices snapshot, InstanceCatalog catalog, Instant now, boolean priced) {
        ClusterSpec cluster = run.cluster();
        NodeGroupSpec nodes = cluster.created() ? cluster.nodeGroup() : null;
        List<String> workers = nodes != null
                ? nodes.types()
                : cluster.warm() && cluster.instanceType() != null ? List.of(cluster.instanceType()) : List.of();
        if (workers.isEmpty()) {
            return new Checked(snapshot, List.of());
        }
        String region = snapshot.region();
        String day = now.atZone(ZoneOffset.UTC).toLocalDate().toString();
        Map<String, InstanceShapes.Shape> shapes = catalog.describeInstanceTypes(workers);
        List<SpecProblem> problems = new ArrayList<>();
        String typesPointer = nodes == null
                ? "/cluster/instanceType"
                : nodes.instanceType() != null ? "/cluster/nodeGroup/instanceType" : "/cluster/nodeGroup/instanceTypes";
        for (String type : workers) {
            InstanceShapes.Shape shape = shapes.get(type);
            if (shape == null) {
                problems.add(new SpecProblem(
                        typesPointer,
                        "EC2 in " + region + " does not know instance type " + type + " (ec2:DescribeInstanceTypes, "
                                + day + ")",
                        "choose a type EC2 sells in " + region
                                + " (trainplane plan lists the types that fit, cheapest first)"));
            } else if (nodes != null) {
                problems.addAll(refuted(nodes, shape, day));
            }
        }
        if (!priced || !problems.isEmpty()) {
            return new Checked(snapshot, problems);
        }
        Set<String> all = new LinkedHashSet<>(workers);
        if (nodes != null) {
            all.add(EksRequests.systemNodeGroup().instanceType());
        }
        Map<String, Double> onDemand = new TreeMap<>(snapshot.instances().onDemandPerHour());
        onDemand.putAll(catalog.onDemandPerHour(region, all));
        Map<String, Double> spot = new TreeMap<>(snapshot.instances().spotPerHour());
        String spotDate = snapshot.spotDate();
        if (nodes != null && nodes.capacityType() == CapacityType.SPOT) {
            spot.putAll(catalog.spotPerHour(workers, now.minus(SPOT_WINDOW)));
            spotDate = day + " (ec2:DescribeSpotPriceHistory)";
        }
        Map<String, Double> blocks = new TreeMap<>();
        if (nodes != null && nodes.capacityType() == CapacityType.CAPACITY_BLOCK) {
            catalog.capacityBlockOffering(nodes.firstType(), nodes.nodes(), blockHours(run.maxRunHours()))
                    .ifPresent(o -> blocks.put(o.instanceType(), o.perInstanceHour()));
        }
        return new Checked(
                snapshot.withInstances(
                        new InstancePrices(region, day + " (pricing:GetProducts)", onDemand, spot, blocks), spotDate),
                problems);
    }

    /**
     * The Capacity Block to price a run of {@code maxRunHours} by: whole days, 1 to 14 of them
     * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-purchase.html: blocks
     * last 1 to 14 days in 1-day steps, longer ones in 7-day steps up to 182 days).
     */
    static int blockHours(int maxRunHours) {
        int days = Math.max(1, Math.min(14, (maxRunHours + 23) / 24));
        return days * 24;
    }

    /** What EC2's description of a worker type refutes in the node group: its GPUs per node, its EFA. */
    private static List<SpecProblem> refuted(NodeGroupSpec nodes, InstanceShapes.Shape shape, String day) {
        List<SpecProblem> problems = new ArrayList<>();
        String described = "EC2 describes " + shape.describe() + " (ec2:DescribeInstanceTypes, " + day + ")";
        if (shape.gpus() != nodes.gpusPerNode()) {
            problems.add(new SpecProblem(
                    "/cluster/nodeGroup/gpusPerNode",
                    "is " + nodes.gpusPerNode() + ", but " + described + "; the offline EC2 catalog of "
                            + InstanceShapes.date() + " is older",
                    "set cluster.nodeGroup.gpusPerNode to " + shape.gpus()
                            + ", and refresh the catalog (scripts/refresh-ec2-catalog.py)"));
        }
        if (nodes.efa() && shape.efaInterfaces() == 0) {
            problems.add(new SpecProblem(
                    "/cluster/nodeGroup/efa",
                    "is true, but " + described + ": no EFA interface",
                    "set cluster.nodeGroup.efa to false, or choose a type with EFA"));
        }
        return problems;
    }
}
