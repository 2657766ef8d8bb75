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
            checkInstanceType(spec.cluster().nodeGroup(), problems);
            checkShapeAssertions(spec.cluster().nodeGroup(), given, problems);
            checkCapacityBlock(spec.cluster().nodeGroup(), problems);
            checkInstanceTypes(training, spec.cluster().nodeGroup(), given, problems);
            checkImageArchitecture(training, spec.cluster().nodeGroup(), problems);
            checkGpusFit(training, spec.cluster().nodeGroup(), problems);
            checkWorkersFit(
                    training,
                    spec.cluster().nodeGroup(),
                    NodeDaemon.onWorkerNodes(
                            spec.cluster().nodeGroup(), spec.volume().type()),
                    problems);
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
        checkMpiJob(spec, problems);
        checkResumeFrom(spec, given, problems);
        LustreRules.check(spec.volume(), problems);
        checkEvaluation(spec.evaluation(), given.path("evaluation"), problems);
        WorkloadRules.check(spec, given, problems);
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
     * The quality gate: the shorthand {@code minAccuracy} or the metric form, not both (the run
     * would have two gates on accuracy or a gate on two metrics), and no range that no value can
     * pass. A metric without a bound is no gate, but the evaluation must still report it: what a
     * normalized spec without a gate says ({@code "metric": "accuracy"}).
     */
    private static void checkEvaluation(EvaluationSpec gate, JsonNode given, List<SpecProblem> problems) {
        boolean shorthand = given.has("minAccuracy");
        boolean metricForm = given.has("metric") || given.has("min") || given.has("max");
        if (shorthand && metricForm) {
            problems.add(new SpecProblem(
                    "/evaluation/minAccuracy",
                    "is the shorthand of metric \"accuracy\" with min, and the spec also gives evaluation."
                            + (given.has("metric") ? "metric" : given.has("min") ? "min" : "max"),
                    "give one form: remove minAccuracy (and write {\"metric\": \"accuracy\", \"min\": "
                            + EvaluationSpec.plain(given.path("minAccuracy").asDouble())
                            + "}), or remove metric, min and max"));
            return;
        }
        if (gate.min() != null && gate.max() != null && gate.min() > gate.max()) {
            problems.add(new SpecProblem(
                    "/evaluation/max",
                    "is " + EvaluationSpec.plain(gate.max()) + ", below evaluation.min "
                            + EvaluationSpec.plain(gate.min()) + ": no value of " + gate.metric() + " could pass",
                    "set evaluation.min at most evaluation.max (swap them if they are the wrong way round)"));
        }
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
        if (spec.volume().type() == VolumeType.NONE) {
            problems.add(new SpecProblem(
                    pointer,
                    "needs the run's shared volume, where the checkpoint is fetched before the training"
                            + " (volume.type is " + spec.volume().type().json() + ")",
                    "set volume.type to \"efs\" or \"fsx-lustre\", or leave training.resumeFrom out"));
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
    static List<SpecProblem> kubernetesVersion(RunSpec spec, LocalDate day) {
        String version = spec.cluster().kubernetesVersion();
        String pointer = "/cluster/kubernetesVersion";
        if (!spec.cluster().created()) {
            return List.of();
        }
        if (version == null) {
            // No default: the calendar has no version EKS creates clusters with on the day.
            return List.of(new SpecProblem(
                    pointer,
                    "has no default: on " + (day == null ? KubernetesVersions.asOf() : day)
                            + " EKS supports none of the versions this build knows (its calendar" + " of "
                            + KubernetesVersions.asOf() + " has " + calendar() + ")",
                    "update this build: its calendar of EKS versions (src/main/resources" + KubernetesVersions.RESOURCE
                            + ") is out of date"));
        }
        // A default is chosen among the versions of the day (RunSpecs), so only a version the spec names is refused.
        String named = "\"" + version + "\"";
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
                        ? "update this build: its calendar of EKS versions (src/main/resources"
                                + KubernetesVersions.RESOURCE + ") is out of date"
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
                        "list only types of the EC2 catalog (families " + knownFamilies()
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

    /**
     * A single {@code instanceType} of a created node group: one whose shape Trainplane knows, so
     * the pods can be checked against what its nodes leave them (and the plan can price it).
     */
    private static void checkInstanceType(NodeGroupSpec nodes, List<SpecProblem> problems) {
        String type = nodes.instanceType();
        if (type == null || InstanceShapes.of(type).isPresent()) {
            return;
        }
        List<String> known =
                InstanceShapes.all().stream().map(InstanceShapes.Shape::name).toList();
        problems.add(new SpecProblem(
                "/cluster/nodeGroup/instanceType",
                "\"" + type + "\" is not in the EC2 instance catalog of " + InstanceShapes.date()
                        + " (its vCPUs, memory, GPUs, EFA and the Regions that sell it)",
                Suggestions.closest(type, known)
                                .map(t -> "did you mean \"" + t + "\"? ")
                                .orElse("")
                        + "choose a type of the families " + knownFamilies()
                        + ", or name the GPUs instead: \"accelerator\": \"A10G:1\""));
    }

    /** "c5, c5a, …, trn2": the families of the catalog's types, for a hint. */
    private static String knownFamilies() {
        return String.join(
                ", ",
                new java.util.TreeSet<>(InstanceShapes.all().stream()
                        .map(s -> s.name().substring(0, s.name().indexOf('.')))
                        .toList()));
    }

    /**
     * What a spec states of its single instance type's shape only asserts it: {@code gpusPerNode}
     * is the type's GPU count (derived when not given, {@link RunSpecs}), and {@code efa} needs a
     * type that supports EFA (DescribeInstanceTypes' EfaSupported;
     * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa.html#efa-instance-types). Refused here,
     * before anything is created, with the instance's real figures: a node group of g5.12xlarge with
     * 8 GPUs per node never schedules, EFA on a type without it never launches, and p4d.24xlarge
     * stated with 4 GPUs would leave half of them idle. A list of types is checked against its first
     * ({@link #checkInstanceTypes}).
     */
    private static void checkShapeAssertions(NodeGroupSpec nodes, JsonNode given, List<SpecProblem> problems) {
        if (nodes.instanceType() == null) {
            return;
        }
        Optional<InstanceShapes.Shape> found = InstanceShapes.of(nodes.instanceType());
        if (found.isEmpty()) {
            return; // checkInstanceType names it
        }
        InstanceShapes.Shape shape = found.get();
        if (!given.at("/cluster/nodeGroup/gpusPerNode").isMissingNode() && nodes.gpusPerNode() != shape.gpus()) {
            problems.add(new SpecProblem(
                    "/cluster/nodeGroup/gpusPerNode",
                    "is " + nodes.gpusPerNode() + ", but " + shape.name() + " has " + shape.gpuText() + " ("
                            + shape.vcpus() + " vCPUs, " + shape.memoryGiB() + " GiB; EC2 catalog of "
                            + InstanceShapes.date() + ")",
                    "set cluster.nodeGroup.gpusPerNode to " + shape.gpus()
                            + ", or leave it out: it is taken from the instance type"));
        }
        if (nodes.efa() && shape.efaInterfaces() == 0) {
            List<String> withEfa = InstanceShapes.all().stream()
                    .filter(s -> s.efaInterfaces() > 0
                            && s.gpus() == shape.gpus()
                            && java.util.Objects.equals(s.accelerator(), shape.accelerator()))
                    .map(InstanceShapes.Shape::name)
                    .toList();
            problems.add(new SpecProblem(
                    "/cluster/nodeGroup/efa",
                    "is true, but " + shape.name() + " does not support EFA (" + shape.gpuText() + ", " + shape.vcpus()
                            + " vCPUs, " + shape.memoryGiB() + " GiB, no EFA interface; EC2 catalog of "
                            + InstanceShapes.date() + ")",
                    "set cluster.nodeGroup.efa to false, or choose a type with EFA"
                            + (withEfa.isEmpty() ? "" : " and the same GPUs: " + String.join(", ", withEfa))));
        }
    }

    /**
     * The created node group's instance types are sold in the run's Region (EC2's
     * DescribeInstanceTypeOfferings; CreateNodegroup fails on a type the Region does not sell,
     * after the cluster was created). Nothing to judge without a Region.
     */
    static List<SpecProblem> soldIn(RunSpec spec, String region) {
        NodeGroupSpec nodes = spec.cluster().nodeGroup();
        if (region == null || !spec.cluster().created() || nodes == null) {
            return List.of();
        }
        List<SpecProblem> problems = new ArrayList<>();
        List<String> types = nodes.types();
        for (int i = 0; i < types.size(); i++) {
            String type = types.get(i);
            if (InstanceShapes.of(type).isEmpty() || InstanceShapes.offeredIn(type, region)) {
                continue;
            }
            List<String> regions = InstanceShapes.regionsOffering(type);
            problems.add(new SpecProblem(
                    nodes.instanceType() != null
                            ? "/cluster/nodeGroup/instanceType"
                            : "/cluster/nodeGroup/instanceTypes/" + i,
                    "\"" + type + "\" is not sold in " + region + " (EC2 catalog of " + InstanceShapes.date() + ")",
                    regions.isEmpty()
                            ? "choose another instance type"
                            : "run in a Region that sells it (" + String.join(", ", regions)
                                    + "), or choose another instance type"));
        }
        return problems;
    }

    /**
     * The families EC2 sells Capacity Blocks for ML of: the types whose SupportedUsageClasses
     * include {@code capacity-block}
     * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-using.html#capacity-blocks-prerequisites).
     * A CAPACITY_BLOCK node group of another type can never launch: its reservation cannot exist.
     */
    static java.util.SortedSet<String> capacityBlockFamilies() {
        return new java.util.TreeSet<>(InstanceShapes.all().stream()
                .filter(InstanceShapes.Shape::sellsCapacityBlocks)
                .map(s -> s.name().substring(0, s.name().indexOf('.')))
                .toList());
    }

    /** A CAPACITY_BLOCK node group: of an instance type Capacity Blocks are sold for. */
    private static void checkCapacityBlock(NodeGroupSpec nodes, List<SpecProblem> problems) {
        String type = nodes.instanceType();
        if (nodes.capacityType() != CapacityType.CAPACITY_BLOCK || type == null) {
            return;
        }
        Optional<InstanceShapes.Shape> shape = InstanceShapes.of(type);
        if (shape.isPresent() && !shape.get().sellsCapacityBlocks()) {
            problems.add(new SpecProblem(
                    "/cluster/nodeGroup/instanceType",
                    "is \"" + type + "\", but capacityType is CAPACITY_BLOCK, and EC2 sells Capacity Blocks for ML"
                            + " only of " + String.join(", ", capacityBlockFamilies())
                            + " instances (DescribeInstanceTypes' SupportedUsageClasses capacity-block; EC2 catalog of "
                            + InstanceShapes.date() + ")",
                    "use the instance type of your Capacity Block (a p5.48xlarge, p4d.24xlarge, …), or set"
                            + " cluster.nodeGroup.capacityType to \"ON_DEMAND\" (with capacityReservationId for an"
                            + " On-Demand Capacity Reservation) or \"SPOT\""));
        }
    }

    /**
     * The training workers on the worker nodes: each worker's pod (its container and the checkpoint
     * sidecar) within what one node leaves pods ({@link NodeAllocatable}), and all of them at once
     * on the group's nodes (the Job starts every worker together; the scheduler packs pods by their
     * requests, https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/). For a
     * diversified group, the smallest listed type, since the group may launch only that one.
     */
    private static void checkWorkersFit(
            TrainingSpec training, NodeGroupSpec nodes, List<NodeDaemon> daemons, List<SpecProblem> problems) {
        List<InstanceShapes.Shape> shapes = new ArrayList<>();
        for (String type : nodes.types()) {
            Optional<InstanceShapes.Shape> shape = InstanceShapes.of(type);
            if (shape.isEmpty()) {
                return; // refused as unknown already
            }
            shapes.add(shape.get());
        }
        Double cpu = quantity(training.cpu());
        Double memory = quantity(training.memory());
        if (cpu == null || memory == null) {
            return;
        }
        long podMillicores = Math.round(cpu * 1000) + Math.round(quantity(TrainingSpec.CHECKPOINT_SYNC_CPU) * 1000);
        long podMiB = (long) Math.ceil((memory + quantity(TrainingSpec.CHECKPOINT_SYNC_MEMORY)) / (1024 * 1024));
        InstanceShapes.Shape fewestCpus = shapes.stream()
                .min(java.util.Comparator.comparingLong(
                        s -> NodeAllocatable.of(s).millicores()))
                .orElseThrow();
        InstanceShapes.Shape leastMemory = shapes.stream()
                .min(java.util.Comparator.comparingLong(
                        s -> NodeAllocatable.of(s).memoryMiB()))
                .orElseThrow();
        // What the node's DaemonSet pods (kube-proxy, aws-node, …) take first.
        long daemonMillicores =
                daemons.stream().mapToLong(NodeDaemon::millicores).sum();
        long daemonMiB = daemons.stream().mapToLong(NodeDaemon::memoryMiB).sum();
        long nodeMillicores = NodeAllocatable.of(fewestCpus).millicores() - daemonMillicores;
        long nodeMiB = NodeAllocatable.of(leastMemory).memoryMiB() - daemonMiB;
        String sidecar = " (with the checkpoint sidecar's " + TrainingSpec.CHECKPOINT_SYNC_CPU + " CPU and "
                + TrainingSpec.CHECKPOINT_SYNC_MEMORY + ")";
        String others = shapes.size() > 1 ? ", or remove it from cluster.nodeGroup.instanceTypes" : "";
        boolean fitsOne = true;
        if (podMillicores > nodeMillicores) {
            fitsOne = false;
            problems.add(new SpecProblem(
                    "/training/cpu",
                    "asks for " + training.cpu() + " CPUs per worker" + sidecar + ", but a " + fewestCpus.name()
                            + " node leaves pods only " + millis(nodeMillicores) + " of its " + fewestCpus.vcpus()
                            + " vCPUs (the EKS AMI reserves "
                            + millis(NodeAllocatable.reservedMillicores(fewestCpus.vcpus()))
                            + " for the kubelet and the system, and the node's DaemonSet pods "
                            + daemons.stream().map(NodeDaemon::name).toList() + " ask for "
                            + millis(daemonMillicores) + ")",
                    "set training.cpu to at most \"" + (nodeMillicores - podMillicores + Math.round(cpu * 1000))
                            + "m\", or choose an instance type with more vCPUs" + others));
        }
        if (podMiB > nodeMiB) {
            fitsOne = false;
            problems.add(new SpecProblem(
                    "/training/memory",
                    "asks for " + training.memory() + " per worker" + sidecar + ", but a " + leastMemory.name()
                            + " node leaves pods only " + nodeMiB + "Mi of its " + leastMemory.memoryGiB()
                            + " GiB (the EKS AMI reserves memory for the kubelet, the system and evictions, and"
                            + " the node's DaemonSet pods ask for " + daemonMiB + "Mi)",
                    "set training.memory to at most \""
                            + (nodeMiB - (podMiB - (long) Math.ceil(memory / (1024 * 1024))))
                            + "Mi\", or choose an instance type with more memory" + others));
        }
        if (!fitsOne) {
            return;
        }
        if (training.gpusPerWorker() > 0
                && (nodes.gpusPerNode() < training.gpusPerWorker()
                        || nodes.gpusPerNode() / training.gpusPerWorker() * nodes.nodes() < training.workers())) {
            return; // the GPUs do not fit: checkGpusFit says so
        }
        long perNode = Math.min(nodeMillicores / podMillicores, nodeMiB / podMiB);
        if (training.gpusPerWorker() > 0) {
            perNode = Math.min(perNode, nodes.gpusPerNode() / training.gpusPerWorker());
        }
        long room = perNode * nodes.nodes();
        if (training.workers() > room && perNode > 0) {
            long needed = (training.workers() + perNode - 1) / perNode;
            problems.add(new SpecProblem(
                    "/training/workers",
                    count(training.workers(), "worker") + " of " + training.cpu() + " CPUs and " + training.memory()
                            + " each do not fit on " + count(nodes.nodes(), "node") + " of " + fewestCpus.name()
                            + " (a node leaves pods " + millis(nodeMillicores) + " and " + nodeMiB
                            + "Mi: room for " + count((int) room, "worker") + ")",
                    "set training.workers to at most " + room + ", cluster.nodeGroup.nodes to " + needed
                            + ", or training.cpu and training.memory lower"));
        }
    }

    /** 7910 millicores as "7.91 CPUs". */
    private static String millis(long millicores) {
        return java.math.BigDecimal.valueOf(millicores, 3).stripTrailingZeros().toPlainString() + " CPUs";
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

    /** Whether {@code image} is one of the official PyTorch images (Docker Hub's pytorch/pytorch). */
    static boolean officialPyTorch(String image) {
        return image.startsWith("pytorch/pytorch:") || image.startsWith("docker.io/pytorch/pytorch:");
    }

    /**
     * Graviton (arm64) workers cannot run the official PyTorch images, which are published for
     * linux/amd64 only (https://hub.docker.com/r/pytorch/pytorch/tags: every tag's OS/ARCH): the
     * node's pull would fail with "no match for platform in manifest" after the cluster is built.
     * An image of the user's own may be arm64; that the run cannot know.
     */
    private static void checkImageArchitecture(TrainingSpec training, NodeGroupSpec nodes, List<SpecProblem> problems) {
        String type = nodes.firstType();
        if (!InstanceShapes.ARM64.equals(InstanceShapes.architecture(type)) || !officialPyTorch(training.image())) {
            return;
        }
        problems.add(new SpecProblem(
                "/cluster/nodeGroup/instanceType",
                "is " + type + ", a Graviton (arm64) type, but the training image " + training.image()
                        + " is published for linux/amd64 only",
                "use an x86_64 instance type (such as " + (nodes.gpusPerNode() > 0 ? "g5.xlarge" : "c6i.2xlarge")
                        + "), or set training.image to an image built for linux/arm64"));
    }

    /**
     * An MPIJob's launcher runs mpirun and its workers an SSH server (the MPI operator's
     * examples/v2beta1): the official PyTorch images have neither (their Dockerfile installs conda
     * and PyTorch only), so the workers' sshd could not start; and mpirun starts every process
     * itself, so the train command cannot be run once per pod ({@code workload.launcher: none}).
     */
    private static void checkMpiJob(RunSpec spec, List<SpecProblem> problems) {
        if (spec.training().launcher() != Launcher.MPIJOB) {
            return;
        }
        String image = spec.training().image();
        if (officialPyTorch(image)) {
            problems.add(new SpecProblem(
                    "/training/launcher",
                    "is \"mpijob\", but the image " + image + " has no OpenMPI (mpirun) and no SSH server"
                            + " (/usr/sbin/sshd), which the MPI operator's launcher and workers run",
                    "set workload.image to an image with PyTorch, OpenMPI and openssh-server (for example"
                            + " horovod/horovod:0.28.1, or your own FROM mpioperator/openmpi), or use"
                            + " training.launcher \"pytorchjob\" or \"indexed-job\""));
        }
        if (spec.workload().launcher() == TrainLauncher.NONE) {
            problems.add(new SpecProblem(
                    "/workload/launcher",
                    "is \"none\", but training.launcher is \"mpijob\": mpirun starts the train command once per"
                            + " process itself (procsPerWorker per worker), with RANK, WORLD_SIZE and MASTER_ADDR set",
                    "remove workload.launcher (your command then runs once per process), or use training.launcher"
                            + " \"indexed-job\" to run it once per pod"));
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
