package io.trainplane.spec;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node group named by its GPUs instead of its instance type, as SkyPilot names them:
 * {@code "A100:8"} (model and GPUs per node), {@code "A100-80GB:8"} (with each GPU's memory). The
 * types that fit have exactly that many NVIDIA GPUs of that model in the EC2 instance catalog
 * ({@link InstanceShapes}), and are sold in the run's Region; the node group takes the smallest
 * (fewest vCPUs, then memory, then GPU memory), which within EC2's price list is the cheapest.
 */
public final class Accelerators {
    /** {@code MODEL[-NNGB]:COUNT}, the spec's form. */
    public static final Pattern FORM = Pattern.compile("^([A-Za-z0-9]+)(?:-([0-9]+)GB)?:([1-9][0-9]?)$");

    private Accelerators() {}

    /** What a spec's {@code accelerator} asks for. */
    public record Request(String model, Integer memoryGiB, int count) {
        public static Optional<Request> parse(String text) {
            Matcher m = FORM.matcher(text);
            if (!m.matches()) {
                return Optional.empty();
            }
            return Optional.of(new Request(
                    m.group(1).toUpperCase(Locale.ROOT),
                    m.group(2) == null ? null : Integer.valueOf(m.group(2)),
                    Integer.parseInt(m.group(3))));
        }

        boolean fits(InstanceShapes.Shape shape) {
            return shape.gpus() == count
                    && model.equalsIgnoreCase(shape.gpuModel())
                    && (memoryGiB == null || Math.round(shape.gpuMemoryMiB() / 1024.0) == memoryGiB);
        }

        /** "A100:8", "A100-80GB:8". */
        @Override
        public String toString() {
            return model + (memoryGiB == null ? "" : "-" + memoryGiB + "GB") + ":" + count;
        }
    }

    private static final Comparator<InstanceShapes.Shape> SMALLEST_FIRST = Comparator.comparingInt(
                    InstanceShapes.Shape::vcpus)
            .thenComparingLong(InstanceShapes.Shape::memoryMiB)
            .thenComparingLong(InstanceShapes.Shape::gpuMemoryMiB)
            .thenComparing(InstanceShapes.Shape::name);

    /** Every type with the requested GPUs, wherever sold, smallest first. */
    public static List<InstanceShapes.Shape> fitting(Request request) {
        return InstanceShapes.all().stream()
                .filter(request::fits)
                .sorted(SMALLEST_FIRST)
                .toList();
    }

    /** The types with the requested GPUs sold in {@code region} (any Region when null), smallest first. */
    public static List<InstanceShapes.Shape> fitting(Request request, String region) {
        return fitting(request).stream()
                .filter(s -> region == null || InstanceShapes.offeredIn(s.name(), region))
                .toList();
    }

    /** The NVIDIA GPU models the catalog knows, with the counts each comes in: "A100 (8)", "L4 (1, 4, 8)". */
    static String knownModels() {
        java.util.Map<String, TreeSet<Integer>> counts = new java.util.TreeMap<>();
        for (InstanceShapes.Shape shape : InstanceShapes.all()) {
            if (shape.gpus() > 0) {
                counts.computeIfAbsent(shape.gpuModel(), k -> new TreeSet<>()).add(shape.gpus());
            }
        }
        return String.join(
                ", ",
                counts.entrySet().stream()
                        .map(e -> e.getKey() + " ("
                                + String.join(
                                        ", ",
                                        e.getValue().stream()
                                                .map(String::valueOf)
                                                .toList())
                                + ")")
                        .toList());
    }
}
