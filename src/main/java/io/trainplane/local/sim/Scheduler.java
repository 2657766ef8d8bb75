package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * kube-scheduler's filters, for one cluster: a pod binds ({@code spec.nodeName}, condition
 * PodScheduled=True) only to a node that passes, in the order of the default profile
 * (https://kubernetes.io/docs/reference/scheduling/config/#scheduling-plugins), NodeUnschedulable,
 * TaintToleration (NoSchedule and NoExecute taints,
 * https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/), NodeAffinity
 * (nodeSelector and required node affinity,
 * https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/) and NodeResourcesFit
 * (the node's allocatable less the requests of the pods bound to it and not finished,
 * https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/). A pod no node
 * takes stays Pending with PodScheduled=False, reason Unschedulable, kube-scheduler's message and a
 * FailedScheduling event. Among the nodes that fit, the one with the most cpu left is taken
 * (the spirit of the default LeastAllocated score).
 */
final class Scheduler {
    /** kube-scheduler's own name, as events and {@code spec.schedulerName} give it. */
    static final String NAME = "default-scheduler";

    /**
     * kube-scheduler's filter reasons (pkg/scheduler/framework/plugins/*). The taint reason names no
     * taint since kubernetes/kubernetes#134740 (cherry-picked to 1.34 in #135023): "Pod statuses no
     * longer include specific taint keys or values".
     */
    static final String UNSCHEDULABLE_NODE = "node(s) were unschedulable";

    static final String UNTOLERATED_TAINT = "node(s) had untolerated taint(s)";
    static final String AFFINITY_MISMATCH = "node(s) didn't match Pod's node affinity/selector";
    static final String TOO_MANY_PODS = "Too many pods";
    /** DefaultPreemption's reasons: no victim can make room on a node that fails for another reason than resources, or where no lower-priority pod runs. */
    static final String PREEMPTION_NOT_HELPFUL = "Preemption is not helpful for scheduling";

    static final String NO_VICTIMS = "No preemption victims found for incoming pod";
    /** kube-scheduler's error when the cluster has no node at all (pkg/scheduler/schedule_one.go, ErrNoNodesAvailable). */
    static final String NO_NODES = "no nodes available to schedule pods";

    private final KubernetesClient client;
    private final ClusterReads reads;

    Scheduler(ClusterReads reads) {
        this.reads = reads;
        this.client = reads.client();
    }

    /** One node's verdict: the reasons it refuses the pod (empty: it fits), and whether preemption could help. */
    record Verdict(String node, List<String> reasons, boolean resolvable) {
        boolean fits() {
            return reasons.isEmpty();
        }
    }

    /**
     * Binds {@code pod} if a node takes it, else records why not; the pod as it now is. A pod
     * already bound is returned as it is.
     */
    Pod schedule(Pod pod, Instant now) {
        if (pod.getSpec().getNodeName() != null) {
            return pod;
        }
        List<Node> nodes = reads.nodes();
        List<Pod> all = reads.pods();
        List<Verdict> verdicts = nodes.stream().map(n -> verdict(pod, n, all)).toList();
        Optional<Node> best = nodes.stream()
                .filter(n -> verdicts.stream()
                        .anyMatch(v -> v.node().equals(n.getMetadata().getName()) && v.fits()))
                .max(Comparator.comparing(n -> free(n, all).getOrDefault("cpu", BigDecimal.ZERO)));
        if (best.isPresent()) {
            return bind(pod, best.get().getMetadata().getName(), now);
        }
        return unschedulable(pod, message(verdicts), now);
    }

    /** The message kube-scheduler writes for a pod no node takes (FitError.Error, pkg/scheduler/framework/types.go). */
    static String message(List<Verdict> verdicts) {
        if (verdicts.isEmpty()) {
            return NO_NODES;
        }
        Map<String, Integer> reasons = new HashMap<>();
        Map<String, Integer> preemption = new HashMap<>();
        for (Verdict v : verdicts) {
            v.reasons().forEach(r -> reasons.merge(r, 1, Integer::sum));
            preemption.merge(v.resolvable() ? NO_VICTIMS : PREEMPTION_NOT_HELPFUL, 1, Integer::sum);
        }
        int n = verdicts.size();
        return "0/" + n + " nodes are available: " + histogram(reasons) + ". preemption: 0/" + n
                + " nodes are available: " + histogram(preemption) + ".";
    }

    /** "count reason" for each reason, sorted as strings (sortReasonsHistogram), joined by ", ". */
    private static String histogram(Map<String, Integer> counts) {
        return String.join(
                ", ",
                counts.entrySet().stream()
                        .map(e -> e.getValue() + " " + e.getKey())
                        .sorted()
                        .toList());
    }

    /** The filters in the default profile's order; the first that fails gives the node's reasons. */
    Verdict verdict(Pod pod, Node node, List<Pod> all) {
        String name = node.getMetadata().getName();
        List<Toleration> tolerations = pod.getSpec().getTolerations() == null
                ? List.of()
                : pod.getSpec().getTolerations();
        if (Boolean.TRUE.equals(node.getSpec().getUnschedulable())
                && !tolerated(new Taint("NoSchedule", "node.kubernetes.io/unschedulable", null, null), tolerations)) {
            return new Verdict(name, List.of(UNSCHEDULABLE_NODE), false);
        }
        if (!untolerated(node, tolerations).isEmpty()) {
            return new Verdict(name, List.of(UNTOLERATED_TAINT), false);
        }
        if (!matchesSelectorAndAffinity(pod, node)) {
            return new Verdict(name, List.of(AFFINITY_MISMATCH), false);
        }
        return fit(pod, node, all);
    }

    /**
     * NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go): "Too many pods",
     * then "Insufficient <resource>" for every resource whose request exceeds what is left; the
     * node is beyond preemption's help when a request exceeds its whole allocatable
     * (InsufficientResource.Unresolvable).
     */
    private Verdict fit(Pod pod, Node node, List<Pod> all) {
        String name = node.getMetadata().getName();
        Map<String, BigDecimal> requests = requests(pod);
        Map<String, BigDecimal> allocatable = amounts(node.getStatus().getAllocatable());
        Map<String, BigDecimal> left = free(node, all);
        List<String> reasons = new ArrayList<>();
        boolean resolvable = true;
        if (left.getOrDefault("pods", BigDecimal.ZERO).compareTo(BigDecimal.ONE) < 0) {
            reasons.add(TOO_MANY_PODS);
        }
        for (var e : requests.entrySet()) {
            if (e.getValue().signum() > 0
                    && e.getValue().compareTo(left.getOrDefault(e.getKey(), BigDecimal.ZERO)) > 0) {
                reasons.add("Insufficient " + e.getKey());
                if (e.getValue().compareTo(allocatable.getOrDefault(e.getKey(), BigDecimal.ZERO)) > 0) {
                    resolvable = false;
                }
            }
        }
        return new Verdict(name, reasons, resolvable);
    }

    /** The node's allocatable less the requests (and the pod slots) of the pods bound to it and not finished. */
    static Map<String, BigDecimal> free(Node node, List<Pod> all) {
        Map<String, BigDecimal> left = amounts(node.getStatus().getAllocatable());
        for (Pod p : all) {
            if (node.getMetadata().getName().equals(p.getSpec().getNodeName()) && !finished(p)) {
                requests(p).forEach((k, v) -> left.merge(k, v.negate(), BigDecimal::add));
                left.merge("pods", BigDecimal.ONE.negate(), BigDecimal::add);
            }
        }
        return left;
    }

    static boolean finished(Pod p) {
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /**
     * What the pod asks of a node (a limit alone counts as the request): the sum of its containers'
     * and its sidecars' (init containers with restartPolicy Always, which run beside them), or the
     * effective init request if that is more: the largest of a plain init container's, each with
     * the sidecars started before it (https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/#resource-sharing-within-containers).
     */
    static Map<String, BigDecimal> requests(Pod pod) {
        Map<String, BigDecimal> running = new TreeMap<>();
        for (Container c : pod.getSpec().getContainers()) {
            containerRequests(c).forEach((k, v) -> running.merge(k, v, BigDecimal::add));
        }
        Map<String, BigDecimal> sidecars = new TreeMap<>();
        Map<String, BigDecimal> init = new TreeMap<>();
        if (pod.getSpec().getInitContainers() != null) {
            for (Container c : pod.getSpec().getInitContainers()) {
                if ("Always".equals(c.getRestartPolicy())) {
                    containerRequests(c).forEach((k, v) -> sidecars.merge(k, v, BigDecimal::add));
                } else {
                    Map<String, BigDecimal> withSidecars = new TreeMap<>(sidecars);
                    containerRequests(c).forEach((k, v) -> withSidecars.merge(k, v, BigDecimal::add));
                    withSidecars.forEach((k, v) -> init.merge(k, v, BigDecimal::max));
                }
            }
        }
        sidecars.forEach((k, v) -> running.merge(k, v, BigDecimal::add));
        init.forEach((k, v) -> running.merge(k, v, BigDecimal::max));
        return running;
    }

    private static Map<String, BigDecimal> containerRequests(Container c) {
        Map<String, BigDecimal> requests = new TreeMap<>();
        if (c.getResources() == null) {
            return requests;
        }
        if (c.getResources().getLimits() != null) {
            requests.putAll(amounts(c.getResources().getLimits()));
        }
        if (c.getResources().getRequests() != null) {
            requests.putAll(amounts(c.getResources().getRequests()));
        }
        return requests;
    }

    private static Map<String, BigDecimal> amounts(Map<String, Quantity> quantities) {
        Map<String, BigDecimal> amounts = new TreeMap<>();
        if (quantities != null) {
            quantities.forEach((k, q) -> amounts.put(k, q.getNumericalAmount()));
        }
        return amounts;
    }

    /** The node's NoSchedule and NoExecute taints the pod does not tolerate. */
    static List<Taint> untolerated(Node node, List<Toleration> tolerations) {
        if (node.getSpec().getTaints() == null) {
            return List.of();
        }
        return node.getSpec().getTaints().stream()
                .filter(t -> "NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect()))
                .filter(t -> !tolerated(t, tolerations))
                .toList();
    }

    /**
     * ToleratesTaint (k8s.io/api/core/v1/toleration.go): the effect matches (or the toleration has
     * none), and the key matches (an empty key with Exists matches every key); Exists takes any
     * value, Equal (the default) the same value.
     */
    static boolean tolerated(Taint taint, List<Toleration> tolerations) {
        for (Toleration t : tolerations) {
            boolean effect = t.getEffect() == null
                    || t.getEffect().isEmpty()
                    || t.getEffect().equals(taint.getEffect());
            boolean anyKey = (t.getKey() == null || t.getKey().isEmpty()) && "Exists".equals(t.getOperator());
            boolean key = anyKey || (t.getKey() != null && t.getKey().equals(taint.getKey()));
            boolean value = "Exists".equals(t.getOperator())
                    || nullToEmpty(t.getValue()).equals(nullToEmpty(taint.getValue()));
            if (effect && key && value) {
                return true;
            }
        }
        return false;
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    /**
     * The pod's nodeSelector (every label equal) and its required node affinity: the terms are
     * ORed, a term's expressions and fields ANDed, a term without any matches no node.
     */
    static boolean matchesSelectorAndAffinity(Pod pod, Node node) {
        Map<String, String> labels = node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        Map<String, String> selector = pod.getSpec().getNodeSelector();
        if (selector != null
                && selector.entrySet().stream().anyMatch(e -> !e.getValue().equals(labels.get(e.getKey())))) {
            return false;
        }
        var affinity = pod.getSpec().getAffinity();
        if (affinity == null
                || affinity.getNodeAffinity() == null
                || affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return true;
        }
        List<NodeSelectorTerm> terms = affinity.getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms();
        Map<String, String> fields = Map.of("metadata.name", node.getMetadata().getName());
        return terms.stream().anyMatch(term -> matches(term, labels, fields));
    }

    private static boolean matches(NodeSelectorTerm term, Map<String, String> labels, Map<String, String> fields) {
        List<NodeSelectorRequirement> expressions =
                term.getMatchExpressions() == null ? List.of() : term.getMatchExpressions();
        List<NodeSelectorRequirement> matchFields = term.getMatchFields() == null ? List.of() : term.getMatchFields();
        if (expressions.isEmpty() && matchFields.isEmpty()) {
            return false;
        }
        return expressions.stream().allMatch(r -> matches(r, labels))
                && matchFields.stream().allMatch(r -> matches(r, fields));
    }

    /** One requirement: In, NotIn, Exists, DoesNotExist, Gt and Lt (integers), as the API reference defines them. */
    static boolean matches(NodeSelectorRequirement r, Map<String, String> labels) {
        String value = labels.get(r.getKey());
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        return switch (r.getOperator()) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            case "Gt", "Lt" -> {
                try {
                    long actual = Long.parseLong(value);
                    long bound = Long.parseLong(values.get(0));
                    yield "Gt".equals(r.getOperator()) ? actual > bound : actual < bound;
                } catch (RuntimeException e) {
                    yield false;
                }
            }
            default -> false;
        };
    }

    private Pod bind(Pod pod, String node, Instant now) {
        pod.getSpec().setNodeName(node);
        Pod bound = client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .resource(pod)
                .update();
        bound.setStatus(pod.getStatus());
        setScheduledCondition(
                bound,
                new PodConditionBuilder()
                        .withType("PodScheduled")
                        .withStatus("True")
                        .withLastTransitionTime(now.toString())
                        .build());
        return client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .resource(bound)
                .updateStatus();
    }

    private Pod unschedulable(Pod pod, String message, Instant now) {
        PodCondition current = scheduledCondition(pod).orElse(null);
        if (current != null && message.equals(current.getMessage())) {
            return pod;
        }
        setScheduledCondition(
                pod,
                new PodConditionBuilder()
                        .withType("PodScheduled")
                        .withStatus("False")
                        .withReason("Unschedulable")
                        .withMessage(message)
                        .withLastTransitionTime(now.toString())
                        .build());
        Pod updated = client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .resource(pod)
                .updateStatus();
        client.v1()
                .events()
                .inNamespace(pod.getMetadata().getNamespace())
                .resource(PodEvents.of(
                        pod,
                        pod.getMetadata().getName() + "." + Long.toHexString(now.toEpochMilli()),
                        "Warning",
                        "FailedScheduling",
                        message,
                        NAME,
                        null,
                        now))
                .createOr(existing -> existing.update());
        return updated;
    }

    static Optional<PodCondition> scheduledCondition(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType()))
                .findFirst();
    }

    private static void setScheduledCondition(Pod pod, PodCondition condition) {
        List<PodCondition> conditions = new ArrayList<>();
        if (pod.getStatus().getConditions() != null) {
            pod.getStatus().getConditions().stream()
                    .filter(c -> !"PodScheduled".equals(c.getType()))
                    .forEach(conditions::add);
        }
        conditions.add(condition);
        pod.getStatus().setConditions(conditions);
    }
}
