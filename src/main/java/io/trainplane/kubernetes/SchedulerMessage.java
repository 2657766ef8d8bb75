package io.trainplane.kubernetes;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What to do about kube-scheduler's reasons for not placing a pod. Its FailedScheduling summary
 * lists, per filter, how many nodes it rejected and why: "0/3 nodes are available: 1 Insufficient
 * cpu, 2 node(s) had untolerated taint {nvidia.com/gpu: true}. preemption: ..." (the taint text of
 * kube-scheduler since 1.25; before, "had taint {k: v}, that the pod didn't tolerate"; see
 * kubernetes/kubernetes#116133, the plugin texts in pkg/scheduler/framework/plugins/noderesources
 * and tainttoleration). Since 1.34 the message names no taint: "node(s) had untolerated taint(s)"
 * (kubernetes/kubernetes#134740, #135023).
 */
final class SchedulerMessage {
    private static final Pattern INSUFFICIENT = Pattern.compile("Insufficient ([A-Za-z0-9./_-]*[A-Za-z0-9])");
    private static final Pattern TAINT = Pattern.compile("had (?:untolerated )?taint \\{([^:}]+): ?([^}]*)}");

    private SchedulerMessage() {}

    /** The fixes the message calls for, most specific first; a general one when it names nothing known. */
    static String fix(String message) {
        Set<String> fixes = new LinkedHashSet<>();
        Matcher insufficient = INSUFFICIENT.matcher(message);
        while (insufficient.find()) {
            fixes.add(insufficient(insufficient.group(1)));
        }
        Matcher taint = TAINT.matcher(message);
        while (taint.find()) {
            fixes.add(taint(taint.group(1).strip(), taint.group(2).strip()));
        }
        if (message.contains("had untolerated taint(s)")) {
            fixes.add("nodes carry taints the pod does not tolerate (kubectl describe nodes shows them; GPU node groups"
                    + " carry nvidia.com/gpu): pods that need no GPU belong on an untainted (system) node group,"
                    + " and a pod that asks for GPUs needs the toleration");
        }
        if (message.contains("node(s) were unschedulable")) {
            fixes.add(
                    "the nodes are cordoned (spec.unschedulable: kubectl cordon, a drain, or a node termination"
                            + " handler before a Spot interruption): kubectl uncordon them once their maintenance is over, or"
                            + " wait for their replacements (https://kubernetes.io/docs/reference/kubectl/generated/kubectl_cordon/)");
        }
        if (message.contains("didn't match Pod's node affinity/selector")) {
            fixes.add("no node has the labels the pod selects (nodeSelector or required node affinity): check the"
                    + " node groups' labels (kubectl get nodes --show-labels)");
        }
        if (message.startsWith("0/0 nodes are available") || message.contains("no nodes available to schedule pods")) {
            fixes.add("the cluster has no nodes: check its node groups");
        }
        if (fixes.isEmpty()) {
            fixes.add("check the node group's instance type, size and GPUs against training.workers and"
                    + " training.gpusPerWorker");
        }
        return String.join("; ", new ArrayList<>(fixes));
    }

    private static String insufficient(String resource) {
        return switch (resource) {
            case ClusterPrerequisites.GPU_RESOURCE ->
                "no node has that many free " + resource + ": either no node advertises GPUs (the NVIDIA device plugin"
                        + " does not run on the GPU nodes; kubectl -n kube-system get ds nvidia-device-plugin-daemonset,"
                        + " kubectl describe nodes) or training.gpusPerWorker asks more GPUs than one node has";
            case ClusterPrerequisites.EFA_RESOURCE ->
                "no node has that many free " + resource + ": either the EFA device plugin does not run on the nodes"
                        + " (kubectl -n kube-system get ds aws-efa-k8s-device-plugin-daemonset) or the instance type"
                        + " has fewer EFA interfaces than a pod asks";
            case "cpu", "memory" ->
                "no node has training." + resource + " free for another pod: ask less, or choose a larger instance"
                        + " type (the node's allocatable is below its capacity: the kubelet and system pods keep a share)";
            case "pods" -> "the nodes hold as many pods as their instance type allows: add nodes";
            default -> "no node has enough free " + resource;
        };
    }

    private static String taint(String key, String value) {
        String taint = key + (value.isEmpty() ? "" : "=" + value);
        if (key.equals(ClusterPrerequisites.GPU_RESOURCE)) {
            return "the GPU nodes carry the taint " + taint
                    + " (EKS accelerated node groups), which keeps off every pod"
                    + " that does not tolerate it: pods that need no GPU belong on an untainted (system) node group,"
                    + " and a pod that asks for GPUs needs the toleration";
        }
        if (key.startsWith("node.kubernetes.io/")) {
            return "the nodes are tainted " + taint + " by Kubernetes itself (not ready, unreachable or under"
                    + " pressure): check them with kubectl describe nodes";
        }
        return "the nodes carry the taint " + taint + ", which the pod does not tolerate: add an untainted node"
                + " group, or the toleration";
    }
}
