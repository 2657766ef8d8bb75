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
