package io.trainplane.local.sim;

import io.trainplane.aws.catalog.InstanceCatalog;
import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.Callers;
import io.trainplane.local.iam.IamRequest;
import io.trainplane.spec.InstanceShapes.Shape;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The account's EC2 instance types and the Price List, as a run asks them before anything is
 * created: DescribeInstanceTypes from the twin's own EC2 answers ({@link Ec2InstanceFacts}, max pods
 * as the EKS AMI computes them: {@link EksAmiKubelet}), On-Demand and Spot prices from the twin's own
 * copy of the Region's prices ({@link PriceListAnswers}) (one Availability Zone's Spot price, the table's typical one), Capacity Block
 * offerings only as a test offers them (the twin has no Capacity Block prices). Each call is logged
 * ({@code ec2:DescribeInstanceTypes}, {@code pricing:GetProducts}), passes the {@link FaultPlan} and
 * asks IAM: these actions take no resource-level permissions, so the resource is {@code *}
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonec2.html,
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_awspricelist.html).
 */
public final class SimulatedInstanceCatalog implements InstanceCatalog {
    /** The operations, by the service they are logged and faulted under. */
    static final Map<String, Set<String>> OPERATIONS = Map.of(
            "ec2",
            Set.of("DescribeInstanceTypes", "DescribeSpotPriceHistory", "DescribeCapacityBlockOfferings"),
            "pricing",
            Set.of("GetProducts"));

    private final CallLog calls;
    private final FaultPlan faults;
    private final Authorizer authorizer;
    private final String region;
    private final List<CapacityBlockOffering> offerings = new CopyOnWriteArrayList<>();

    public SimulatedInstanceCatalog(CallLog calls, FaultPlan faults, Authorizer authorizer, String region) {
        this.calls = calls;
        this.faults = faults;
        this.authorizer = authorizer;
        this.region = region;
    }

    /** Puts a Capacity Block on offer, as EC2 lists them for purchase. */
    public void offer(CapacityBlockOffering offering) {
        offerings.add(offering);
    }

    @Override
    public Map<String, Shape> describeInstanceTypes(Collection<String> types) {
        call("ec2", "DescribeInstanceTypes");
        Map<String, Shape> found = new TreeMap<>();
        types.forEach(t -> Ec2InstanceFacts.of(t)
                .filter(f -> Ec2InstanceFacts.offeredIn(t, region))
                .ifPresent(f -> found.put(t, shape(f))));
        return found;
    }

    /** The twin's answer for one type, in the shape the product reads EC2's answers into. */
    static Shape shape(Ec2InstanceFacts.Fact f) {
        return new Shape(
                f.name(),
                f.vcpus(),
                f.memoryMiB(),
                f.nvidiaGpus(),
                f.gpuModel() == null ? null : "NVIDIA " + f.gpuModel(),
                f.gpuMemoryMiB(),
                f.neuronDevices(),
                f.neuronModel(),
                f.maxEfaInterfaces(),
                f.architecture(),
                EksAmiKubelet.maxPods(f.name()),
                f.usageClasses());
    }

    @Override
    public Map<String, Double> onDemandPerHour(String priceRegion, Collection<String> types) {
        Map<String, Double> prices = new TreeMap<>();
        for (String type : types) {
            // One GetProducts a type, as the product asks.
            call("pricing", "GetProducts");
            table(priceRegion).map(t -> t.onDemand().get(type)).ifPresent(p -> prices.put(type, p));
        }
        return prices;
    }

    @Override
    public Map<String, Double> spotPerHour(Collection<String> types, Instant since) {
        call("ec2", "DescribeSpotPriceHistory");
        Map<String, Double> prices = new TreeMap<>();
        table(region)
                .ifPresent(t -> types.forEach(type -> {
                    Double spot = t.spot().get(type);
                    if (spot != null) {
                        prices.put(type, spot);
                    }
                }));
        return prices;
    }

    @Override
    public Optional<CapacityBlockOffering> capacityBlockOffering(String type, int count, int hours) {
        call("ec2", "DescribeCapacityBlockOfferings");
        return offerings.stream()
                .filter(o -> o.instanceType().equals(type) && o.instanceCount() == count && o.durationHours() == hours)
                .min(java.util.Comparator.comparingDouble(CapacityBlockOffering::upfrontFee));
    }

    private static Optional<PriceListAnswers.RegionPrices> table(String region) {
        return PriceListAnswers.of(region);
    }

    private void call(String service, String operation) {
        calls.record(service, operation);
        faults.beforeCatalogCall(service, operation);
        AuditEntry entry = authorizer.authorize(Callers.current(), IamRequest.of(service + ":" + operation, "*"));
        if (!entry.decision().allowed()) {
            // EC2 answers UnauthorizedOperation, the Price List AccessDeniedException.
            throw new CatalogError(
                    service + ":" + operation,
                    service.equals("ec2") ? "UnauthorizedOperation" : "AccessDeniedException",
                    AwsErrors.deniedMessage(entry));
        }
    }
}
