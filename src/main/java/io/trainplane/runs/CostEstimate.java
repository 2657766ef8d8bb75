package io.trainplane.runs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunPrices;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.core.Json;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.spec.NodeGroupSpec;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.VolumeType;
import java.io.PrintWriter;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A rough cost estimate of a run from the shipped price table and a simple model (the assumptions
 * are listed with the estimate). Not a quote: on-demand prices, and for a SPOT node group typical
 * spot prices with the on-demand price beside them; no other discounts. Besides the nodes, control
 * plane, volume and workflow, it counts what {@link RunUsage} prices (root volumes, logs, NAT and
 * data transfer, S3). A Capacity Block's nodes are unpriced: the block is paid up front at its own
 * rate, which the table does not have. The training's seconds per epoch: {@link EpochTime}.
 */
public record CostEstimate(
        RunPrices prices,
        List<String> assumptions,
        double expectedHours,
        List<Line> expected,
        double worstCaseHours,
        List<Line> worstCase,
        EpochTime epochTime,
        double unpricedBlockAtOnDemand) {

    /**
     * One row: quantity × unit price; {@code unitPrice} null when the table has no price for it.
     * A SPOT node group's row is priced at spot and carries the on-demand price beside it
     * ({@code onDemandUnitPrice}; null on other rows, whose price is on-demand already).
     */
    public record Line(String item, double quantity, String unit, Double unitPrice, Double onDemandUnitPrice) {
        Line(String item, double quantity, String unit, Double unitPrice) {
            this(item, quantity, unit, unitPrice, null);
        }

        public Double cost() {
            return unitPrice == null ? null : quantity * unitPrice;
        }

        public boolean spot() {
            return onDemandUnitPrice != null;
        }

        /** What the row costs with its nodes on demand: its own cost for a row that is not spot. */
        public Double onDemandCost() {
            return spot() ? quantity * onDemandUnitPrice : cost();
        }
    }

    /** Assumed seconds per epoch of the default CIFAR-10 workload, per instance family (whole job). */
    public static final Map<String, Double> SECONDS_PER_EPOCH =
            Map.of("c5", 240.0, "m5", 300.0, "g5", 25.0, "p4d", 8.0, "p5", 5.0);

    public static final double DEFAULT_SECONDS_PER_EPOCH = 300.0;
    /** Hours around training: cluster and node group creation, data, evaluation, teardown. */
    public static final double OVERHEAD_HOURS_CREATE = 0.5;

    public static final double OVERHEAD_HOURS_EXISTING = 0.1;
    /** EFS: data and checkpoints stored; written once; dataset read once per epoch plus evaluation. */
    public static final double EFS_STORED_GB = 2.0;

    public static final double EFS_WRITTEN_GB = 2.0;
    public static final double EFS_DATASET_GB = 0.2;
    public static final double HOURS_PER_MONTH = 730.0;

    /** Step Functions: fixed transitions, polls while provisioning, one poll per 2 minutes while training, 3 transitions per poll. */
    public static final int FIXED_TRANSITIONS = 60;

    public static final int SETUP_POLLS_CREATE = 40;
    public static final int SETUP_POLLS_EXISTING = 10;
    public static final double TRAINING_POLL_SECONDS = 120.0;
    public static final int TRANSITIONS_PER_POLL = 3;
    /** Lambda: fixed invocations plus one per poll, 1 GB (the template's MemorySize), 2 s each. */
    public static final int FIXED_INVOCATIONS = 30;

    public static final double LAMBDA_GB = 1.0;
    public static final double LAMBDA_SECONDS = 2.0;

    /** The EKS control plane's line: its name and hourly price, which depend on the version's support on the run's day. */
    private record ControlPlane(String item, double perHour, boolean extended) {
        public static ControlPlane of(RunSpec spec, RunPrices prices, LocalDate runDay) {
            if (KubernetesVersions.support(spec.cluster().kubernetesVersion(), runDay)
                    == KubernetesVersions.Support.EXTENDED) {
                return new ControlPlane(
                        "EKS control plane, extended support", prices.eksExtendedSupportControlPlanePerHour(), true);
            }
            return new ControlPlane("EKS control plane", prices.eksControlPlanePerHour(), false);
        }
    }

    /** The estimate of a run of {@code spec} starting on {@code runDay} (which sets the control plane's price). */
    public static CostEstimate of(RunSpec spec, RunPrices prices, LocalDate runDay) {
        return of(spec, prices, runDay, PastEpochs.NONE);
    }

    /**
     * The estimate of a run of {@code spec} starting on {@code runDay}, a workload of the user's
     * own without training.secondsPerEpoch timed by its earlier runs in {@code past}.
     */
    public static CostEstimate of(RunSpec spec, RunPrices prices, LocalDate runDay, PastEpochs past) {
        boolean create = spec.cluster().created();
        NodeGroupSpec nodes = create ? spec.cluster().nodeGroup() : null;
        // A diversified node group may get its slowest type: the estimate assumes it.
        String slowest = create
                ? nodes.types().stream()
                        .max(java.util.Comparator.comparingDouble(CostEstimate::secondsPerEpoch))
                        .orElseThrow()
                : null;
        EpochTime epochTime = epochTime(spec, slowest, past);
        double secondsPerEpoch = epochTime.seconds();
        int epochs = spec.workload().epochs(spec.training().epochs());
        double epochHours = epochs * secondsPerEpoch / 3600.0;
        double timeoutHours = spec.training().timeoutMinutes() / 60.0;
        double trainingHours = Math.min(epochHours, timeoutHours);
        double overhead = create ? OVERHEAD_HOURS_CREATE : OVERHEAD_HOURS_EXISTING;
        double expectedHours = Math.min(trainingHours + overhead, spec.maxRunHours());
        double worstHours = spec.maxRunHours();

        List<String> assumptions = new ArrayList<>();
        assumptions.add("prices: on-demand, " + prices.region() + ", table of " + prices.date());
        NodePrice nodePrice = create ? NodePrice.of(nodes, prices) : null;
        if (create && nodes.capacityType() == CapacityType.SPOT) {
            assumptions.add(nodePrice.assumption(prices));
        }
        ControlPlane controlPlane = create ? ControlPlane.of(spec, prices, runDay) : null;
        if (create && controlPlane.extended()) {
            String version = spec.cluster().kubernetesVersion();
            assumptions.add(String.format(
                    "Kubernetes %s is in EKS extended support on %s (it ends on %s): the control plane"
                            + " costs $%.2f an hour instead of $%.2f; a version in standard support avoids it",
                    version,
                    runDay,
                    KubernetesVersions.find(version).orElseThrow().endOfExtendedSupport(),
                    controlPlane.perHour(),
                    prices.eksControlPlanePerHour()));
        }
        if (create && nodes.capacityType() == CapacityType.CAPACITY_BLOCK) {
            assumptions.add(capacityBlock(nodes, prices));
        }
        if (create || epochTime.source() != EpochTime.Source.TABLE) {
            assumptions.add(String.format(
                    "training: %d epochs × %.0f s per epoch%s = %.2f h%s (seconds per epoch: %s)",
                    epochs,
                    secondsPerEpoch,
                    create ? " on " + family(slowest) : "",
                    epochHours,
                    epochHours > timeoutHours
                            ? String.format(", capped by training.timeoutMinutes at %.2f h", timeoutHours)
                            : "",
                    epochTime.describe()));
        }
        if (!create && spec.cluster().warm()) {
            assumptions.add("warm cluster: its control plane and other nodes are billed to the cluster; the warm node"
                    + " group's nodes, up from the run's first state to right after its evaluation, are the run's"
                    + (spec.cluster().instanceType() != null
                            ? ", priced for the whole run"
                            : ", not priced here: give cluster.instanceType to price them"));
        } else if (!create) {
            assumptions.add("existing cluster: its nodes and control plane are billed to the cluster, not to the run");
        }
        assumptions.addAll(RunUsage.assumptions(spec));
        assumptions.add(String.format(
                "expected duration: training + %.1f h (provisioning, data, evaluation, teardown), at most maxRunHours",
                overhead));
        assumptions.add(
                "worst case: the run lasts maxRunHours (" + spec.maxRunHours() + " h) before the safety net cleans up");
        return new CostEstimate(
                prices,
                List.copyOf(assumptions),
                expectedHours,
                lines(spec, prices, nodePrice, controlPlane, expectedHours, Math.max(0, expectedHours - overhead)),
                worstHours,
                lines(spec, prices, nodePrice, controlPlane, worstHours, worstHours),
                epochTime,
                create
                                && nodes.capacityType() == CapacityType.CAPACITY_BLOCK
                                && prices.capacityBlockPerHour(nodes.firstType()) == null
                                && nodePrice.perHour() != null
                        ? nodes.nodes() * worstHours * nodePrice.perHour()
                        : 0);
    }

    /**
     * The seconds per epoch the estimate takes: training.secondsPerEpoch when given; for the
     * built-in workload, its figure for the (slowest) instance family; for a workload of the
     * user's own, the mean of its earlier SUCCEEDED runs in {@code past}, else a guess.
     */
    static EpochTime epochTime(RunSpec spec, String slowest, PastEpochs past) {
        Double stated = spec.training().secondsPerEpoch();
        if (stated != null) {
            return new EpochTime(stated, EpochTime.Source.STATED, null);
        }
        if (spec.workload().sameAsBuiltin()) {
            return slowest == null
                    ? new EpochTime(DEFAULT_SECONDS_PER_EPOCH, EpochTime.Source.TABLE, "any family")
                    : new EpochTime(secondsPerEpoch(slowest), EpochTime.Source.TABLE, family(slowest));
        }
        return past.of(spec)
                .map(l -> new EpochTime(
                        l.meanSeconds(),
                        EpochTime.Source.LEARNED,
                        "the mean of " + l.runs() + " earlier SUCCEEDED run" + (l.runs() == 1 ? "" : "s")
                                + " of this spec"))
                .orElseGet(() -> new EpochTime(DEFAULT_SECONDS_PER_EPOCH, EpochTime.Source.GUESS, null));
    }

    /**
     * A Capacity Block is paid up front, at its own rate, for the block's whole duration: the
     * offline table has no such rate (AWS quotes them per offering: ec2:DescribeCapacityBlockOfferings'
     * UpfrontFee, https://aws.amazon.com/ec2/capacityblocks/pricing/); a live lookup (StartRun,
     * {@code plan --stack}) prices the block's instance-hours at its cheapest offering's rate.
     */
    public static String capacityBlock(NodeGroupSpec nodes, RunPrices prices) {
        Double rate = prices.capacityBlockPerHour(nodes.firstType());
        if (rate != null) {
            return String.format(
                    java.util.Locale.ROOT,
                    "Capacity Block %s: $%.2f an instance-hour, the cheapest offering ec2:DescribeCapacityBlockOfferings"
                            + " answered (its UpfrontFee over its instances and hours); the block is paid up front for"
                            + " its whole duration (https://aws.amazon.com/ec2/capacityblocks/pricing/)",
                    nodes.capacityReservationId(),
                    rate);
        }
        return "Capacity Block " + nodes.capacityReservationId() + ": paid up front for the block's whole duration at"
                + " the Capacity Block rate (not On-Demand), which the offline table does not have: its line is unpriced"
                + " and the totals are lower bounds; AWS quotes the block's price as the UpfrontFee of"
                + " ec2:DescribeCapacityBlockOfferings (https://aws.amazon.com/ec2/capacityblocks/pricing/)";
    }

    /**
     * The hourly price of one worker node. On demand: the type's price. SPOT: the highest typical
     * spot price of the listed types (EC2 picks the type, so the estimate takes the dearest), a type
     * without a spot price in the table at its on-demand price (the most a Spot instance costs:
     * https://aws.amazon.com/ec2/spot/pricing/), and the highest on-demand price beside it. Null
     * when a listed type has no price at all.
     */
    public record NodePrice(
            String item, Double perHour, Double onDemandPerHour, String dearest, List<String> noSpotPrice) {
        public static NodePrice of(NodeGroupSpec nodes, RunPrices prices) {
            String types = String.join("|", nodes.types());
            if (nodes.capacityType() != CapacityType.SPOT) {
                return new NodePrice(
                        "EC2 " + nodes.nodes() + " × " + types,
                        prices.instancePerHour(nodes.firstType()),
                        null,
                        null,
                        List.of());
            }
            Double spot = prices.instances().nodePerHour(nodes).orElse(null);
            Double onDemand = 0.0;
            String dearest = null;
            List<String> noSpotPrice = new ArrayList<>();
            for (String type : nodes.types()) {
                Double typeOnDemand = prices.instancePerHour(type);
                Double typeSpot = prices.spotPerHour(type);
                if (typeSpot == null) {
                    noSpotPrice.add(type);
                    typeSpot = typeOnDemand;
                }
                onDemand = onDemand == null || typeOnDemand == null ? null : Math.max(onDemand, typeOnDemand);
                if (dearest == null && typeSpot != null && typeSpot.equals(spot)) {
                    dearest = type;
                }
            }
            return new NodePrice(
                    "EC2 " + nodes.nodes() + " × " + types + " (spot)",
                    spot,
                    onDemand,
                    dearest,
                    List.copyOf(noSpotPrice));
        }

        public String assumption(RunPrices prices) {
            String priced = perHour == null
                    ? "a listed type has no price in the table"
                    : String.format(
                            "$%s an hour per node, the highest of the listed types (%s)",
                            java.math.BigDecimal.valueOf(perHour).toPlainString(), dearest);
            return "worker nodes: SPOT at typical spot prices of " + prices.spotDate() + ", " + priced
                    + "; spot prices change by the hour and by Availability Zone"
                    + (noSpotPrice.isEmpty()
                            ? ""
                            : "; no spot price in the table for " + String.join(", ", noSpotPrice)
                                    + ": priced at on-demand, the most Spot costs")
                    + (onDemandPerHour == null
                            ? ""
                            : String.format(
                                    "; on demand the same nodes cost $%s an hour each",
                                    java.math.BigDecimal.valueOf(onDemandPerHour)
                                            .toPlainString()));
        }
    }

    private static List<Line> lines(
            RunSpec spec,
            RunPrices prices,
            NodePrice nodePrice,
            ControlPlane controlPlane,
            double hours,
            double trainingHours) {
        boolean create = spec.cluster().created();
        List<Line> lines = new ArrayList<>();
        if (create) {
            NodeGroupSpec nodes = spec.cluster().nodeGroup();
            boolean block = nodes.capacityType() == CapacityType.CAPACITY_BLOCK;
            lines.add(new Line(
                    block ? nodePrice.item() + " (Capacity Block)" : nodePrice.item(),
                    nodes.nodes() * hours,
                    "node-hour",
                    block ? prices.capacityBlockPerHour(nodes.firstType()) : nodePrice.perHour(),
                    nodes.capacityType() == CapacityType.SPOT && nodePrice.perHour() != null
                            ? nodePrice.onDemandPerHour()
                            : null));
            NodeGroupSpec system = EksRequests.systemNodeGroup();
            lines.add(new Line(
                    "EC2 " + system.nodes() + " × " + system.instanceType() + " (system)",
                    system.nodes() * hours,
                    "node-hour",
                    prices.instancePerHour(system.instanceType())));
            lines.add(new Line(controlPlane.item(), hours, "hour", controlPlane.perHour()));
        }
        String warmType = spec.cluster().warm() ? spec.cluster().instanceType() : null;
        if (warmType != null) {
            int nodes = spec.cluster().warmNodes(spec.training().workers());
            lines.add(new Line(
                    "EC2 " + nodes + " × " + warmType + " (warm node group)",
                    nodes * hours,
                    "node-hour",
                    prices.instancePerHour(warmType)));
        }
        if (spec.volume().type() == VolumeType.EFS) {
            lines.add(new Line(
                    "EFS storage", EFS_STORED_GB * hours / HOURS_PER_MONTH, "GB-month", prices.efsStoragePerGbMonth()));
            lines.add(new Line("EFS elastic throughput, writes", EFS_WRITTEN_GB, "GB", prices.efsElasticWritePerGb()));
            lines.add(new Line(
                    "EFS elastic throughput, reads",
                    EFS_DATASET_GB * (spec.workload().epochs(spec.training().epochs()) + 1),
                    "GB",
                    prices.efsElasticReadPerGb()));
        }
        if (spec.volume().type() == VolumeType.FSX_LUSTRE && spec.volume().fileSystemId() == null) {
            // Its whole capacity, prorated over the run (https://aws.amazon.com/fsx/lustre/pricing/);
            // an adopted one is its owner's.
            lines.add(new Line(
                    spec.volume().lustreDescription(),
                    spec.volume().lustreStorageCapacityGiB() * hours / HOURS_PER_MONTH,
                    "GB-month",
                    prices.fsxLustrePerGbMonth(spec.volume())));
        }
        lines.addAll(RunUsage.lines(
                spec,
                prices,
                new RunUsage.Hours(
                        create ? spec.cluster().nodeGroup().nodes() * hours : 0,
                        create ? EksRequests.systemNodeGroup().nodes() * hours : 0,
                        create ? hours : 0,
                        trainingHours,
                        RunUsage.pulledGB(spec),
                        true)));
        double polls = (create ? SETUP_POLLS_CREATE : SETUP_POLLS_EXISTING)
                + Math.ceil(trainingHours * 3600 / TRAINING_POLL_SECONDS);
        lines.add(new Line(
                "Step Functions transitions",
                (FIXED_TRANSITIONS + TRANSITIONS_PER_POLL * polls) / 1000.0,
                "1,000 transitions",
                prices.stepFunctionsPer1000Transitions()));
        lines.add(new Line(
                "Lambda",
                (FIXED_INVOCATIONS + polls) * LAMBDA_GB * LAMBDA_SECONDS,
                "GB-s",
                prices.lambdaPerGbSecond()));
        return List.copyOf(lines);
    }

    public static String family(String instanceType) {
        int dot = instanceType.indexOf('.');
        return dot < 0 ? instanceType : instanceType.substring(0, dot);
    }

    public static double secondsPerEpoch(String instanceType) {
        return SECONDS_PER_EPOCH.getOrDefault(family(instanceType), DEFAULT_SECONDS_PER_EPOCH);
    }

    public static double total(List<Line> lines) {
        return lines.stream()
                .filter(l -> l.cost() != null)
                .mapToDouble(Line::cost)
                .sum();
    }

    /** The total with every spot row at its on-demand price. */
    public static double onDemandTotal(List<Line> lines) {
        double total = 0;
        for (Line l : lines) {
            if (l.unitPrice() != null) {
                total += l.spot() ? l.onDemandCost() : l.cost();
            }
        }
        return total;
    }

    public boolean anySpot() {
        return expected.stream().anyMatch(Line::spot);
    }

    public double expectedTotal() {
        return total(expected);
    }

    public double worstCaseTotal() {
        return total(worstCase);
    }

    /**
     * The worst case the stack's ceilings and a run's budget judge: {@link #worstCaseTotal} with a
     * Capacity Block's unpriced nodes at their On-Demand price for the whole worst case, so that a
     * line the table cannot price never lets a run past a ceiling it would otherwise meet. Null when
     * any other line is unpriced (an instance type or a Region the price snapshot lacks): the worst
     * case is then unknown, and {@link io.trainplane.aws.RunCeilings} refuses to judge a ceiling by it.
     */
    public Double ceilingWorstCase() {
        long unpriced = worstCase.stream().filter(l -> l.unitPrice() == null).count();
        long judgedAnyway = unpricedBlockAtOnDemand > 0 ? 1 : 0; // the block's nodes, at On-Demand
        return unpriced > judgedAnyway ? null : worstCaseTotal() + unpricedBlockAtOnDemand;
    }

    /** "$12.34 (estimate)", or "at least $12.34 (price of X unknown)" when a line has no price. */
    public static String totalText(List<Line> lines) {
        List<String> unknown = lines.stream()
                .filter(l -> l.unitPrice() == null)
                .map(Line::item)
                .toList();
        return unknown.isEmpty()
                ? String.format("$%.2f (estimate)", total(lines))
                : String.format("at least $%.2f (price of %s unknown)", total(lines), String.join(", ", unknown));
    }

    /** Lines without a price (an instance type missing from the table): the total leaves them out. */
    public List<String> unpriced() {
        return expected.stream()
                .filter(l -> l.unitPrice() == null)
                .map(Line::item)
                .toList();
    }

    public ObjectNode toJson() {
        ObjectNode n = Json.object()
                .put("estimate", true)
                .put("currency", "USD")
                .put("region", prices.region())
                .put("priceDate", prices.date());
        ArrayNode a = n.putArray("assumptions");
        assumptions.forEach(a::add);
        n.put("expectedHours", round(expectedHours));
        n.putObject("secondsPerEpoch")
                .put("seconds", round(epochTime.seconds()))
                .put("source", epochTime.source().name().toLowerCase(java.util.Locale.ROOT))
                .put("guess", epochTime.guess())
                .put("text", epochTime.describe());
        lines(n.putArray("lines"), expected);
        n.put("total", round(expectedTotal()));
        // A total without some prices is a lower bound: say so beside the number, never only in "unpriced".
        n.put("totalComplete", unpriced().isEmpty());
        n.put("totalText", totalText(expected));
        if (anySpot()) {
            n.put("onDemandTotal", round(onDemandTotal(expected)));
        }
        ObjectNode worst = n.putObject("worstCase").put("hours", worstCaseHours);
        lines(worst.putArray("lines"), worstCase);
        worst.put("total", round(worstCaseTotal()));
        worst.put("totalComplete", unpriced().isEmpty());
        worst.put("totalText", totalText(worstCase));
        if (anySpot()) {
            worst.put("onDemandTotal", round(onDemandTotal(worstCase)));
        }
        ArrayNode u = n.putArray("unpriced");
        unpriced().forEach(u::add);
        return n;
    }

    private static void lines(ArrayNode array, List<Line> lines) {
        for (Line l : lines) {
            ObjectNode o = array.addObject()
                    .put("item", l.item())
                    .put("quantity", round(l.quantity()))
                    .put("unit", l.unit());
            if (l.unitPrice() == null) {
                o.putNull("unitPrice").putNull("cost");
            } else {
                o.put("unitPrice", l.unitPrice()).put("cost", round(l.cost()));
            }
            if (l.spot()) {
                o.put("capacityType", "SPOT")
                        .put("onDemandUnitPrice", l.onDemandUnitPrice())
                        .put("onDemandCost", round(l.onDemandCost()));
            }
        }
    }

    public static double round(double v) {
        return Math.round(v * 1_000_000.0) / 1_000_000.0;
    }

    public void print(PrintWriter out) {
        if (anySpot()) {
            out.printf(
                    "# Cost ESTIMATE (USD, %s: on-demand prices of %s, typical spot prices of %s; not a quote)%n",
                    prices.region(), prices.date(), prices.spotDate());
        } else {
            out.printf(
                    "# Cost ESTIMATE (USD, on-demand, %s prices of %s; not a quote)%n", prices.region(), prices.date());
        }
        assumptions.forEach(a -> out.println("#   assumes " + a));
        table(out, String.format("expected (%.2f h)", expectedHours), expected);
        table(out, String.format("worst case (maxRunHours = %.0f h)", worstCaseHours), worstCase);
        if (!unpriced().isEmpty()) {
            out.println(
                    "#   no price in the table for: " + String.join(", ", unpriced()) + " (left out of the totals)");
        }
    }

    private static void table(PrintWriter out, String title, List<Line> lines) {
        out.println("#   " + title + ":");
        for (Line l : lines) {
            out.printf(
                    "#     %-34s %12.4f %-18s × %-12s = %s%n",
                    l.item(),
                    l.quantity(),
                    l.unit(),
                    l.unitPrice() == null
                            ? "?"
                            : "$" + java.math.BigDecimal.valueOf(l.unitPrice()).toPlainString(),
                    l.cost() == null ? "?" : String.format("$%.2f", l.cost()));
            if (l.spot()) {
                out.printf(
                        "#       %-32s %12s %-18s × %-12s = $%.2f%n",
                        "(the same on demand)",
                        "",
                        "",
                        "$"
                                + java.math.BigDecimal.valueOf(l.onDemandUnitPrice())
                                        .toPlainString(),
                        l.onDemandCost());
            }
        }
        out.printf("#     %-34s %47s %s%n", "total", "", totalText(lines));
        if (lines.stream().anyMatch(Line::spot)) {
            out.printf(
                    "#     %-34s %47s $%.2f (estimate)%n", "total with the nodes on demand", "", onDemandTotal(lines));
        }
    }
}
