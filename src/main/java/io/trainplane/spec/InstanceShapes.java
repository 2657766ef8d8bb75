package io.trainplane.spec;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The EC2 instance catalog: each type's shape and the Regions that sell it, as EC2 itself answers
 * {@code ec2:DescribeInstanceTypes} and {@code ec2:DescribeInstanceTypeOfferings} (LocationType
 * region), kept in {@code src/main/resources/ec2/instance-types.json} with the day it was taken
 * ({@code trainplane catalog refresh} rewrites it from the APIs). It covers the current accelerated
 * families (NVIDIA GPUs and AWS Neuron) and the common CPU families in every Region EKS runs in.
 * {@code gpusPerNode} and EFA are facts of a type, not of a spec: the spec rules check every shape
 * against these before anything is created. A diversified SPOT node group lists only types of one
 * shape (same GPUs, accelerator, EFA interfaces and architecture), as AWS recommends for Spot node
 * groups (https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html#managed-node-group-capacity-types).
 * The simulated cluster's nodes take their capacity from here too (local/sim/InstanceTypes).
 */
public final class InstanceShapes {
    /**
     * One instance type. {@code gpus} are NVIDIA GPUs ({@code nvidia.com/gpu} on a node), of
     * {@code accelerator} ("NVIDIA A10G"; null without GPUs) with {@code gpuMemoryMiB} each;
     * {@code neuronDevices} of {@code neuronModel} are AWS Trainium or Inferentia devices;
     * {@code efaInterfaces} is DescribeInstanceTypes' MaximumEfaInterfaces (0 without EFA);
     * {@code maxPods} the most pods the EKS AMI lets the kubelet run with the VPC CNI
     * (awslabs/amazon-eks-ami, nodeadm/internal/kubelet/eni_max_pods.go calculateStandardMaxPods:
     * the ENIs of the default network card × (IPv4 addresses per ENI − 1) + 2); {@code usageClasses}
     * how EC2 sells it ({@code on-demand}, {@code spot}, {@code capacity-block}).
     */
    public record Shape(
            String name,
            int vcpus,
            long memoryMiB,
            int gpus,
            String accelerator,
            long gpuMemoryMiB,
            int neuronDevices,
            String neuronModel,
            int efaInterfaces,
            String architecture,
            int maxPods,
            Set<String> usageClasses) {
        public Shape {
            usageClasses = Set.copyOf(usageClasses);
        }

        /** Memory in whole GiB, as EC2's pages print it. */
        public int memoryGiB() {
            return (int) (memoryMiB / 1024);
        }

        /** "1 NVIDIA A10G GPU", "16 Trainium2 Neuron devices, no GPU", "no GPU". */
        String gpuText() {
            if (gpus == 0) {
                return neuronDevices == 0
                        ? "no GPU"
                        : neuronDevices + " " + neuronModel + " Neuron device" + (neuronDevices == 1 ? "" : "s")
                                + ", no GPU";
            }
            return gpus + " " + accelerator + " GPU" + (gpus == 1 ? "" : "s");
        }

        String efaText() {
            return efaInterfaces == 0 ? "no EFA" : efaInterfaces + " EFA interface" + (efaInterfaces == 1 ? "" : "s");
        }

        /** "g5.12xlarge: 4 NVIDIA A10G GPUs (24 GiB each), 48 vCPUs, 192 GiB, 1 EFA interface". */
        public String describe() {
            return name + ": " + gpuText() + (gpus == 0 ? "" : " (" + gpuMemoryMiB / 1024 + " GiB each)") + ", " + vcpus
                    + " vCPUs, " + memoryGiB() + " GiB, " + efaText();
        }

        /** The GPU model without its maker: "A10G", "H100"; null without GPUs. */
        public String gpuModel() {
            return accelerator == null ? null : accelerator.substring(accelerator.indexOf(' ') + 1);
        }

        public boolean sellsCapacityBlocks() {
            return usageClasses.contains("capacity-block");
        }
    }

    /** EC2's names of the two architectures (DescribeInstanceTypes' ProcessorInfo.SupportedArchitectures). */
    public static final String X86 = "x86_64";

    public static final String ARM64 = "arm64";
    /** family, generation, attributes: {@code c7gn.2xlarge} is c / 7 / gn. */
    private static final java.util.regex.Pattern FAMILY =
            java.util.regex.Pattern.compile("([a-z]+)(\\d+)([a-z-]*)\\.[a-z0-9-]+");

    /** The catalog as read: its day, its types by name, and each Region's types. */
    record Catalog(String date, Map<String, Shape> shapes, Map<String, Set<String>> regions) {}

    private static final Catalog CATALOG = load();

    private InstanceShapes() {}

    private static Catalog load() {
        try (InputStream in = InstanceShapes.class.getResourceAsStream("/ec2/instance-types.json")) {
            return parse(Json.read(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A catalog document as {@code trainplane catalog refresh} writes it. */
    static Catalog parse(JsonNode n) {
        Map<String, Shape> shapes = new TreeMap<>();
        for (JsonNode t : n.path("instanceTypes")) {
            Shape shape = shapeOf(t);
            shapes.put(shape.name(), shape);
        }
        Map<String, Set<String>> regions = new TreeMap<>();
        n.path("regions").properties().forEach(e -> {
            Set<String> types = new TreeSet<>();
            e.getValue().forEach(t -> types.add(t.asText()));
            regions.put(e.getKey(), Collections.unmodifiableSet(types));
        });
        return new Catalog(
                n.path("date").asText(), Collections.unmodifiableMap(shapes), Collections.unmodifiableMap(regions));
    }

    /**
     * One type's facts as the catalog keeps a DescribeInstanceTypes answer (the fields
     * {@code scripts/refresh-ec2-catalog.py}'s {@code fact} writes), as a shape.
     */
    public static Shape shapeOf(JsonNode t) {
        JsonNode gpu = t.path("gpu");
        boolean nvidia = "NVIDIA".equals(gpu.path("manufacturer").asText());
        JsonNode neuron = t.path("neuron");
        List<String> architectures = new ArrayList<>();
        t.path("architectures").forEach(a -> architectures.add(a.asText()));
        Set<String> usage = new TreeSet<>();
        t.path("usageClasses").forEach(u -> usage.add(u.asText()));
        return new Shape(
                t.path("name").asText(),
                t.path("vcpus").asInt(),
                t.path("memoryMiB").asLong(),
                nvidia ? gpu.path("count").asInt() : 0,
                nvidia ? "NVIDIA " + gpu.path("model").asText() : null,
                nvidia ? gpu.path("memoryMiB").asLong() : 0,
                neuron.path("count").asInt(0),
                neuron.path("model").asText(null),
                t.path("maxEfaInterfaces").asInt(0),
                architectures.contains(X86) || architectures.isEmpty() ? X86 : architectures.getFirst(),
                t.path("interfacesOnDefaultCard").asInt()
                                * (t.path("ipv4PerInterface").asInt() - 1)
                        + 2,
                usage);
    }

    public static Optional<Shape> of(String name) {
        return Optional.ofNullable(CATALOG.shapes().get(name));
    }

    /** The day the catalog was taken from the EC2 APIs. */
    public static String date() {
        return CATALOG.date();
    }

    /**
     * Whether {@code region} sells {@code instanceType}; true for a Region the catalog does not
     * cover (nothing to judge it by: EC2 itself then answers).
     */
    public static boolean offeredIn(String instanceType, String region) {
        Set<String> types = CATALOG.regions().get(region);
        return types == null || types.contains(instanceType);
    }

    /** Whether the catalog covers {@code region}. */
    public static boolean knowsRegion(String region) {
        return CATALOG.regions().containsKey(region);
    }

    /** The Regions that sell {@code instanceType}, by name. */
    public static List<String> regionsOffering(String instanceType) {
        return CATALOG.regions().entrySet().stream()
                .filter(e -> e.getValue().contains(instanceType))
                .map(Map.Entry::getKey)
                .toList();
    }

    /**
     * The architecture of {@code instanceType}: the catalog's, else by its name: Graviton types are
     * {@code a1} and every family whose attribute letters after the generation contain {@code g}
     * ({@code m7g}, {@code c7gn}, {@code r6gd}, {@code g5g}, {@code im4gn}); {@code g4dn} or
     * {@code g6e} are x86 (https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html).
     */
    public static String architecture(String instanceType) {
        Shape shape = CATALOG.shapes().get(instanceType);
        if (shape != null) {
            return shape.architecture();
        }
        java.util.regex.Matcher m = FAMILY.matcher(instanceType);
        boolean graviton = m.matches()
                && ((m.group(1).equals("a") && m.group(2).equals("1"))
                        || m.group(3).contains("g"));
        return graviton ? ARM64 : X86;
    }

    /** Every known type, by name. */
    public static List<Shape> all() {
        return List.copyOf(CATALOG.shapes().values());
    }

    /** Whether a node of {@code b} can stand in for one of {@code a} in a diversified node group. */
    static boolean sameShape(Shape a, Shape b) {
        return a.gpus() == b.gpus()
                && java.util.Objects.equals(a.accelerator(), b.accelerator())
                && a.neuronDevices() == b.neuronDevices()
                && java.util.Objects.equals(a.neuronModel(), b.neuronModel())
                && a.efaInterfaces() == b.efaInterfaces()
                && a.architecture().equals(b.architecture());
    }

    /** The known types of the same shape as {@code shape}, other than itself: what a hint can offer. */
    static List<String> sameShapeAs(Shape shape) {
        return CATALOG.shapes().values().stream()
                .filter(s -> !s.name().equals(shape.name()) && sameShape(s, shape))
                .map(Shape::name)
                .toList();
    }
}
