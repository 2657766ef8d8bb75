package io.trainplane.spec;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The rules of a run spec that a JSON Schema cannot say well. */
final class SpecRules {
    private SpecRules() {}

    /**
     * Strings with control characters (a line break, a tab). Checked on the raw document because
     * the schema's patterns cannot be trusted with them: a Java {@code $} also matches before a
     * final line break.
     */
    static List<SpecProblem> controlCharacters(JsonNode document) {
        List<SpecProblem> problems = new ArrayList<>();
        collectControlCharacters(document, "", problems);
        return problems;
    }

    /** The rules across fields of a spec that passed the schema. */
    static List<SpecProblem> check(RunSpec spec, JsonNode given) {
        List<SpecProblem> problems = new ArrayList<>();
        TrainingSpec training = spec.training();
        if (spec.cluster().created() && spec.cluster().nodeGroup() != null) {
            checkInstanceTypes(training, spec.cluster().nodeGroup(), given, problems);
            checkGpusFit(training, spec.cluster().nodeGroup(), problems);
        }
        if (training.gpusPerWorker() > 0 && training.procsPerWorker() > training.gpusPerWorker()) {
            problems.add(new SpecProblem(
                    "/training/procsPerWorker",
                    "starts " + training.procsPerWorker() + " processes per worker, but a worker has only "
                            + count(training.gpusPerWorker(), "GPU") + " and each process needs one",
                    "set procsPerWorker to " + training.gpusPerWorker() + " (one process per GPU)"));
        }
        int runMinutes = spec.maxRunHours() * 60;
        if (training.timeoutMinutes() > runMinutes) {
            boolean defaulted = given.at("/training/timeoutMinutes").isMissingNode();
            problems.add(new SpecProblem(
                    "/training/timeoutMinutes",
                    "is " + training.timeoutMinutes() + " minutes" + (defaulted ? " (the default)" : "")
                            + ", longer than the whole run may last (maxRunHours " + spec.maxRunHours()
                            + " = " + runMinutes + " minutes)",
                    "set training.timeoutMinutes to at most " + runMinutes + ", or raise maxRunHours"));
        }
        checkResumeFrom(spec, given, problems);
        if (isZero(training.cpu())) {
            problems.add(new SpecProblem(
                    "/training/cpu",
                    "must be more than zero",
                    "ask for at least some CPU, for example \"2\" or \"500m\""));
        }
        if (isZero(training.memory())) {
            problems.add(new SpecProblem(
                    "/training/memory", "must be more than zero", "ask for some memory, for example \"4Gi\""));
        }
        return problems;
    }

    /**
     * {@code training.resumeFrom}: the data Job's pod fetches the checkpoint onto the shared volume,
     * where the training looks for it, so the run needs one (with volume 'none' each pod has its
     * own disk); a checkpoint URI names its epoch, and one of the spec's epochs or more leaves
     * nothing to train. A run ID is resolved, and its epoch checked, by StartRun.
     */
    private static void checkResumeFrom(RunSpec spec, JsonNode given, List<SpecProblem> problems) {
        String resumeFrom = spec.training().resumeFrom();
        if (resumeFrom == null) {
            return;
        }
        String pointer = "/training/resumeFrom";
        if (spec.volume().type() != VolumeType.EFS) {
            problems.add(new SpecProblem(
                    pointer,
                    "needs the run's shared volume, where the checkpoint is fetched before the training"
                            + " (volume.type is " + spec.volume().type().json() + ")",
                    "set volume.type to \"efs\", or leave training.resumeFrom out"));
        }
        CheckpointUri.parse(resumeFrom)
                .flatMap(c -> c.nothingLeftToTrain(
                        spec.training().epochs(), given.at("/training/epochs").isMissingNode()))
                .ifPresent(problems::add);
    }

    /**
     * The created cluster's Kubernetes version: one EKS has, and, when {@code day} is given (the
     * run's UTC day), one EKS still creates clusters with that day. Without a day only the first.
     */
    static List<SpecProblem> kubernetesVersion(RunSpec spec, JsonNode given, LocalDate day) {
        String version = spec.cluster().kubernetesVersion();
        if (!spec.cluster().created() || version == null) {
            return List.of();
        }
        String pointer = "/cluster/kubernetesVersion";
        String named = "\"" + version + "\"" + (given.at(pointer).isMissingNode() ? " (the default)" : "");
        Optional<KubernetesVersions.Version> known = KubernetesVersions.find(version);
        if (day == null) {
            return known.isPresent()
                    ? List.of()
                    : List.of(new SpecProblem(
                            pointer,
                            named + " is not a Kubernetes version EKS runs (its calendar has " + calendar() + ")",
                            "set cluster.kubernetesVersion to a version EKS supports, see "
                                    + KubernetesVersions.source()));
        }
        String why;
        if (known.isEmpty()) {
            why = named + " is not a Kubernetes version EKS runs";
        } else if (day.isBefore(known.get().eksRelease())) {
            why = named + " is not released on EKS before " + known.get().eksRelease();
        } else if (!day.isBefore(known.get().endOfExtendedSupport())) {
            why = named + " reached the end of EKS extended support on "
                    + known.get().endOfExtendedSupport() + ": EKS creates no cluster with it from that day";
        } else {
            return List.of();
        }
        List<String> available = KubernetesVersions.available(day);
        String newest = KubernetesVersions.newestInStandardSupport(day).orElse(null);
        return List.of(new SpecProblem(
                pointer,
                why + " (on " + day + " EKS supports "
                        + (available.isEmpty() ? "none of the versions this build knows" : String.join(", ", available))
                        + ")",
                newest == null
                        ? "update this build: its calendar of EKS versions (" + KubernetesVersions.RESOURCE
                                + ") is out of date"
                        : "set cluster.kubernetesVersion to \"" + newest + "\", the newest version in standard support"
                                + (available.size() > 1
                                        ? ", or another one of " + String.join(", ", available)
                                                + " (one in extended support costs more per cluster-hour)"
                                        : "")));
    }

    private static String calendar() {
        List<KubernetesVersions.Version> all = KubernetesVersions.all();
        return all.getFirst().version() + " to " + all.getLast().version();
    }

    /**
     * A node group listing several instance types: SPOT only, each type one whose shape Trainplane
     * knows ({@link InstanceShapes}), all of one shape (the pods are sized once, for every node the
     * group may launch: AWS's advice for Spot node groups is types of the same vCPUs, memory and
     * GPUs, https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html#managed-node-group-capacity-types),
     * {@code gpusPerNode} their GPU count, and a worker's CPU and memory within the smallest type.
     * A single {@code instanceType} is any type, as before.
     */
    private static void checkInstanceTypes(
            TrainingSpec training, NodeGroupSpec nodes, JsonNode given, List<SpecProblem> problems) {
        List<String> types = nodes.instanceTypes();
        if (types == null) {
            return;
        }
        String pointer = "/cluster/nodeGroup/instanceTypes";
        if (nodes.capacityType() != CapacityType.SPOT) {
            boolean defaulted = given.at("/cluster/nodeGroup/capacityType").isMissingNode();
            problems.add(new SpecProblem(
                    pointer,
                    "lists " + types.size() + " instance types, but capacityType is "
                            + nodes.capacityType().json()
                            + (defaulted ? " (the default)" : "") + ": only a SPOT node group takes several ("
                            + (nodes.capacityType() == CapacityType.CAPACITY_BLOCK
                                    ? "a Capacity Block reserves one instance type"
                                    : "on-demand nodes are not reclaimed, so other types add no capacity worth"
                                            + " having, and the plan prices one")
                            + ")",
                    "set cluster.nodeGroup.capacityType to \"SPOT\", or give one type: \"instanceType\": \""
                            + types.getFirst() + "\""));
            return;
        }
        List<InstanceShapes.Shape> shapes = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            Optional<InstanceShapes.Shape> shape = InstanceShapes.of(types.get(i));
            if (shape.isEmpty()) {
                problems.add(new SpecProblem(
                        pointer + "/" + i,
                        "\"" + types.get(i) + "\" is not an instance type whose shape (GPUs, EFA, vCPUs, memory)"
                                + " Trainplane knows, so it cannot check that it can stand in for the others",
                        "list only known types ("
                                + String.join(
                                        ", ",
                                        InstanceShapes.all().stream()
                                                .map(InstanceShapes.Shape::name)
                                                .toList())
                                + "), or give this one alone as \"instanceType\""));
            } else {
                shapes.add(shape.get());
            }
        }
        if (shapes.size() < types.size()) {
            return;
        }
        InstanceShapes.Shape first = shapes.getFirst();
        boolean oneShape = true;
        for (int i = 1; i < shapes.size(); i++) {
            InstanceShapes.Shape shape = shapes.get(i);
            if (!InstanceShapes.sameShape(first, shape)) {
                oneShape = false;
                List<String> alike = InstanceShapes.sameShapeAs(first).stream()
                        .filter(t -> !types.contains(t))
                        .toList();
                problems.add(new SpecProblem(
                        pointer + "/" + i,
                        shape.name() + " has " + shape.gpuText() + ", " + shape.efaText() + ", " + shape.architecture()
                                + ", but " + first.name() + " (the first) has " + first.gpuText() + ", "
                                + first.efaText() + ", " + first.architecture()
                                + ": the workers are sized once, so every listed type must have the same GPUs,"
                                + " EFA interfaces and architecture",
                        "remove " + shape.name() + " from instanceTypes"
                                + (alike.isEmpty()
                                        ? ""
                                        : ", or list types shaped like " + first.name() + ": "
                                                + String.join(", ", alike))));
            }
        }
        if (!oneShape) {
            return;
        }
        if (nodes.gpusPerNode() != first.gpus()) {
            problems.add(new SpecProblem(
                    "/cluster/nodeGroup/gpusPerNode",
                    "is " + nodes.gpusPerNode() + ", but each of the listed instance types has " + first.gpuText(),
                    "set cluster.nodeGroup.gpusPerNode to " + first.gpus()));
        }
        InstanceShapes.Shape fewestCpus = shapes.stream()
                .min(java.util.Comparator.comparingInt(InstanceShapes.Shape::vcpus))
                .orElseThrow();
        InstanceShapes.Shape leastMemory = shapes.stream()
                .min(java.util.Comparator.comparingInt(InstanceShapes.Shape::memoryGiB))
                .orElseThrow();
        Double cpus = quantity(training.cpu());
        if (cpus != null && cpus > fewestCpus.vcpus()) {
            problems.add(new SpecProblem(
                    "/training/cpu",
                    "asks for " + training.cpu() + " CPUs per worker, more than " + fewestCpus.name()
                            + ", the listed type with the fewest, has (" + fewestCpus.vcpus()
                            + " vCPUs): a worker must fit on every type the node group may launch",
                    "set training.cpu below " + fewestCpus.vcpus()
                            + " (the kubelet and system pods keep a share), or remove " + fewestCpus.name()
                            + " from cluster.nodeGroup.instanceTypes"));
        }
        Double memory = quantity(training.memory());
        double leastBytes = leastMemory.memoryGiB() * 1024.0 * 1024 * 1024;
        if (memory != null && memory > leastBytes) {
            problems.add(new SpecProblem(
                    "/training/memory",
                    "asks for " + training.memory() + " per worker, more than " + leastMemory.name()
                            + ", the listed type with the least, has (" + leastMemory.memoryGiB()
                            + " GiB): a worker must fit on every type the node group may launch",
                    "set training.memory below " + leastMemory.memoryGiB()
                            + "Gi (the kubelet and system pods keep a share), or remove " + leastMemory.name()
                            + " from cluster.nodeGroup.instanceTypes"));
        }
    }

    /** A Kubernetes quantity ("6", "500m", "12Gi", "4G") as a plain number; null when not one of these forms. */
    static Double quantity(String quantity) {
        if (quantity == null) {
            return null;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "([0-9]+(?:\\.[0-9]+)?)(m|k|M|G|T|P|Ki|Mi|Gi|Ti|Pi)?")
                .matcher(quantity);
        if (!m.matches()) {
            return null;
        }
        double value = Double.parseDouble(m.group(1));
        double unit = m.group(2) == null
                ? 1
                : switch (m.group(2)) {
                    case "m" -> 1e-3;
                    case "k" -> 1e3;
                    case "M" -> 1e6;
                    case "G" -> 1e9;
                    case "T" -> 1e12;
                    case "P" -> 1e15;
                    case "Ki" -> 1024.0;
                    case "Mi" -> 1024.0 * 1024;
                    case "Gi" -> 1024.0 * 1024 * 1024;
                    case "Ti" -> 1024.0 * 1024 * 1024 * 1024;
                    default -> 1024.0 * 1024 * 1024 * 1024 * 1024;
                };
        return value * unit;
    }

    private static void checkGpusFit(TrainingSpec training, NodeGroupSpec nodes, List<SpecProblem> problems) {
        int gpus = training.gpusPerWorker();
        if (gpus == 0) {
            return;
        }
        if (nodes.gpusPerNode() == 0) {
            problems.add(new SpecProblem(
                    "/training/gpusPerWorker",
                    "asks for " + count(gpus, "GPU") + " per worker, but the nodes have none"
                            + " (cluster.nodeGroup.gpusPerNode is 0)",
                    "choose a GPU instance type and set cluster.nodeGroup.gpusPerNode to its GPU count,"
                            + " or set training.gpusPerWorker to 0"));
        } else if (gpus > nodes.gpusPerNode()) {
            problems.add(new SpecProblem(
                    "/training/gpusPerWorker",
                    "asks for " + gpus + " GPUs per worker, but a node has only " + nodes.gpusPerNode(),
                    "set training.gpusPerWorker to at most " + nodes.gpusPerNode()
                            + ", or choose an instance type with more GPUs"));
        } else {
            int workersPerNode = nodes.gpusPerNode() / gpus;
            int room = workersPerNode * nodes.nodes();
            if (training.workers() > room) {
                int needed = (training.workers() + workersPerNode - 1) / workersPerNode;
                problems.add(new SpecProblem(
                        "/training/workers",
                        count(training.workers(), "worker") + " with " + count(gpus, "GPU") + " each do not fit on "
                                + count(nodes.nodes(), "node") + " with " + count(nodes.gpusPerNode(), "GPU")
                                + " each (room for " + count(room, "worker") + ")",
                        "set training.workers to at most " + room + ", or cluster.nodeGroup.nodes to " + needed));
            }
        }
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /** "0", "0.0", "0m", "0Gi": a quantity of nothing. */
    private static boolean isZero(String quantity) {
        String number = quantity.replaceAll("[A-Za-z]+$", "");
        try {
            return new BigDecimal(number).signum() == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static void collectControlCharacters(JsonNode node, String pointer, List<SpecProblem> problems) {
        if (node.isTextual()) {
            if (node.asText().chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                problems.add(new SpecProblem(
                        pointer,
                        "contains a control character (a line break, a tab, ...)",
                        "remove line breaks, tabs and other invisible characters from the value"));
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                collectControlCharacters(field.getValue(), SchemaProblems.child(pointer, field.getKey()), problems);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectControlCharacters(node.get(i), pointer + "/" + i, problems);
            }
        }
    }
}
