package io.trainplane.spec;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The shape of the EC2 instance types Trainplane knows: vCPUs, memory, GPUs and their kind, EFA
 * interfaces (one per network card; 0 without EFA) and architecture, from the EC2 instance type
 * pages (https://aws.amazon.com/ec2/instance-types/ ; accelerated computing:
 * https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html ; EFA:
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa.html#efa-instance-types). The types are
 * those of the price table (src/main/resources/prices) and EKS's default t3.medium. A diversified
 * SPOT node group lists only types of one shape (same GPUs, accelerator, EFA interfaces and
 * architecture), as AWS recommends for Spot node groups
 * (https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html#managed-node-group-capacity-types).
 * The simulated cluster's nodes take their capacity from here too (local/sim/InstanceTypes).
 */
public final class InstanceShapes {
    /**
     * One instance type: memory in GiB; {@code accelerator} null for a type without GPUs;
     * {@code maxPods} the most pods the EKS AMI lets the kubelet run with the VPC CNI
     * (awslabs/amazon-eks-ami, nodeadm/internal/kubelet/eni_max_pods.go calculateStandardMaxPods:
     * ENIs of the default network card × (IPv4 addresses per ENI − 1) + 2, each type's two figures
     * from nodeadm/internal/kubelet/instance-info.jsonl; p5.48xlarge has 2 ENIs on its default card,
     * hence 100).
     */
    public record Shape(
            String name,
            int vcpus,
            int memoryGiB,
            int gpus,
            String accelerator,
            int efaInterfaces,
            String architecture,
            int maxPods) {
        /** "1 NVIDIA A10G GPU", "no GPU". */
        String gpuText() {
            return gpus == 0 ? "no GPU" : gpus + " " + accelerator + " GPU" + (gpus == 1 ? "" : "s");
        }

        String efaText() {
            return efaInterfaces == 0 ? "no EFA" : efaInterfaces + " EFA interface" + (efaInterfaces == 1 ? "" : "s");
        }
    }

    /** EC2's names of the two architectures (DescribeInstanceTypes' ProcessorInfo.SupportedArchitectures). */
    public static final String X86 = "x86_64";

    public static final String ARM64 = "arm64";
    /** family, generation, attributes: {@code c7gn.2xlarge} is c / 7 / gn. */
    private static final java.util.regex.Pattern FAMILY =
            java.util.regex.Pattern.compile("([a-z]+)(\\d+)([a-z-]*)\\.[a-z0-9-]+");

    private static final String A10G = "NVIDIA A10G";

    private static final Map<String, Shape> SHAPES = table(
            new Shape("t3.medium", 2, 4, 0, null, 0, X86, 17),
            new Shape("c5.xlarge", 4, 8, 0, null, 0, X86, 58),
            new Shape("c5.2xlarge", 8, 16, 0, null, 0, X86, 58),
            new Shape("c5.4xlarge", 16, 32, 0, null, 0, X86, 234),
            new Shape("c5a.2xlarge", 8, 16, 0, null, 0, X86, 58),
            new Shape("c6i.2xlarge", 8, 16, 0, null, 0, X86, 58),
            // Graviton3 (https://aws.amazon.com/ec2/instance-types/c7g/): 8 vCPUs, 16 GiB; 4 ENIs of 15 addresses.
            new Shape("c7g.2xlarge", 8, 16, 0, null, 0, ARM64, 58),
            new Shape("m5.large", 2, 8, 0, null, 0, X86, 29),
            new Shape("m5.xlarge", 4, 16, 0, null, 0, X86, 58),
            new Shape("m5.2xlarge", 8, 32, 0, null, 0, X86, 58),
            new Shape("g5.xlarge", 4, 16, 1, A10G, 0, X86, 58),
            new Shape("g5.2xlarge", 8, 32, 1, A10G, 0, X86, 58),
            new Shape("g5.12xlarge", 48, 192, 4, A10G, 1, X86, 737),
            new Shape("g5.48xlarge", 192, 768, 8, A10G, 1, X86, 345),
            new Shape("p4d.24xlarge", 96, 1152, 8, "NVIDIA A100", 4, X86, 737),
            new Shape("p5.48xlarge", 192, 2048, 8, "NVIDIA H100", 32, X86, 100));

    private InstanceShapes() {}

    private static Map<String, Shape> table(Shape... shapes) {
        Map<String, Shape> table = new TreeMap<>();
        for (Shape shape : shapes) {
            table.put(shape.name(), shape);
        }
        return java.util.Collections.unmodifiableMap(table);
    }

    public static Optional<Shape> of(String name) {
        return Optional.ofNullable(SHAPES.get(name));
    }

    /**
     * The architecture of {@code instanceType}: the table's, else by its name: Graviton types are
     * {@code a1} and every family whose attribute letters after the generation contain {@code g}
     * ({@code m7g}, {@code c7gn}, {@code r6gd}, {@code g5g}, {@code im4gn}); {@code g4dn} or
     * {@code g6e} are x86 (https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html).
     */
    public static String architecture(String instanceType) {
        Shape shape = SHAPES.get(instanceType);
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
        return List.copyOf(SHAPES.values());
    }

    /** Whether a node of {@code b} can stand in for one of {@code a} in a diversified node group. */
    static boolean sameShape(Shape a, Shape b) {
        return a.gpus() == b.gpus()
                && java.util.Objects.equals(a.accelerator(), b.accelerator())
                && a.efaInterfaces() == b.efaInterfaces()
                && a.architecture().equals(b.architecture());
    }

    /** The known types of the same shape as {@code shape}, other than itself: what a hint can offer. */
    static List<String> sameShapeAs(Shape shape) {
        return SHAPES.values().stream()
                .filter(s -> !s.name().equals(shape.name()) && sameShape(s, shape))
                .map(Shape::name)
                .toList();
    }
}
