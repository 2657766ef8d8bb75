package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainplane.aws.eks.WarmNodegroups;
import io.trainplane.aws.eks.WarmNodegroups.Warm;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.ClusterPrerequisites;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * A warm cluster's workers ({@code cluster.mode: warm}): the first look, before anything is
 * created, checks what the cluster lacks and the node group, claims the node group for the run
 * (a second run is refused while one holds it: both would set its one desired size, and the first
 * to finish would take the other's nodes away) and asks for the nodes, and is done then
 * ({@link #ASKED}); the looks after that answer whether they are Ready, and advertise their GPUs
 * when the workers ask for some.
 */
public final class ScaleWorkersStep implements KubernetesStep {
    static final int WAIT_SECONDS = 20;
    /** In the input: {@link #ASKED}, or absent for the nodes Ready. */
    static final String WAIT_FOR = "waitFor";
    /** Done once the nodes are asked for (ScaleUpWorkers): they boot while the run goes on. */
    static final String ASKED = "asked";
    /**
     * How long Ready nodes may advertise no GPUs before the run gives up: the NVIDIA device plugin
     * registers them within seconds of its pod starting on the node.
     */
    static final Duration DEVICE_PLUGIN_GRACE = Duration.ofMinutes(3);

    private final RunStore store;
    private final Supplier<WarmNodegroups> nodegroups;
    private final ClusterAccess clusters;
    private final Clock clock;

    ScaleWorkersStep(RunStore store, Supplier<WarmNodegroups> nodegroups, ClusterAccess clusters, Clock clock) {
        this.store = store;
        this.nodegroups = nodegroups;
        this.clusters = clusters;
        this.clock = clock;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        String cluster = run.clusterName();
        Warm warm = new Warm(cluster, run.spec().cluster().nodegroupName());
        int nodes = run.spec().cluster().warmNodes(run.spec().training().workers());
        KubernetesClient client = clusters.connect(cluster);
        try {
            if (!store.get(run.runId()).resources().has(RunResources.WARM_NODEGROUP)) {
                claim(client, run, warm, nodes);
            }
            nodegroups.get().scaleTo(warm, nodes, run.runId() + "-scale-out");
            if (ASKED.equals(input.path(WAIT_FOR).asText())) {
                return Json.object().put("done", true).put("waitSeconds", 0).put("asked", nodes);
            }
            List<Node> ready = client
                    .nodes()
                    .withLabel(WorkloadManifests.WARM_NODEGROUP_LABEL, warm.nodegroup())
                    .list()
                    .getItems()
                    .stream()
                    .filter(ScaleWorkersStep::ready)
                    .toList();
            if (ready.size() < nodes) {
                return notYet(ready.size() + " of " + nodes + " nodes of " + warm.nodegroup() + " Ready");
            }
            if (run.spec().training().gpusPerWorker() > 0) {
                List<Node> silent = ready.stream()
                        .filter(n -> !ClusterPrerequisites.advertised(List.of(n), ClusterPrerequisites.GPU_RESOURCE))
                        .toList();
                if (!silent.isEmpty()) {
                    return gpusNotAdvertised(warm, silent);
                }
            }
            return Json.object().put("done", true).put("waitSeconds", 0).put("nodes", ready.size());
        } catch (KubernetesClientException e) {
            throw KubernetesFailures.refused(e) ? KubernetesFailures.accessDenied(cluster, e) : e;
        }
    }

    /** What the cluster lacks and what the node group refuses, then the claim: refused runs leave nothing. */
    private void claim(KubernetesClient client, RunContext run, Warm warm, int nodes) {
        ConnectClusterStep.refuseWhatIsMissing(client, warm.cluster(), run);
        String instanceType = nodegroups.get().requireWarm(warm, nodes);
        String planned = run.spec().cluster().instanceType();
        if (planned != null && !planned.equals(instanceType)) {
            throw new TerminalException(
                    FailureReason.WarmNodegroupType,
                    "node group " + warm.nodegroup() + " of cluster " + warm.cluster() + " is of type " + instanceType
                            + ", not " + planned + " as cluster.instanceType says; nothing was created. Set"
                            + " cluster.instanceType to \"" + instanceType + "\" (the plan prices the nodes with it)");
        }
        store.claim(RunStore.Claim.WARM_NODEGROUP, warm.ref(), run.runId()).ifPresent(holder -> {
            throw new TerminalException(
                    FailureReason.WarmNodegroupBusy,
                    "run " + holder + " holds node group " + warm.nodegroup() + " of cluster " + warm.cluster()
                            + "; nothing was created. One run at a time scales a warm node group: start this run"
                            + " again once " + holder + " has finished (trainplane status " + holder + "), or cancel"
                            + " it (trainplane cancel " + holder + ")");
        });
        store.update(run.runId(), r -> r.withResource(RunResources.WARM_NODEGROUP, warm.ref())
                .withResource(RunResources.WARM_INSTANCE_TYPE, instanceType));
    }

    private JsonNode gpusNotAdvertised(Warm warm, List<Node> silent) {
        Instant now = clock.instant();
        boolean waitedEnough = silent.stream()
                .map(ScaleWorkersStep::readySince)
                .allMatch(since -> since != null && Duration.between(since, now).compareTo(DEVICE_PLUGIN_GRACE) > 0);
        if (!waitedEnough) {
            return notYet(silent.size() + " Ready nodes of " + warm.nodegroup() + " advertise no GPUs yet");
        }
        throw new TerminalException(
                FailureReason.GpusNotAdvertised,
                silent.size() + " Ready nodes of node group " + warm.nodegroup() + " advertised no "
                        + ClusterPrerequisites.GPU_RESOURCE + " for " + DEVICE_PLUGIN_GRACE.toMinutes()
                        + " minutes: the NVIDIA device plugin does not run on them, or the instance type has no GPUs."
                        + " Install the device plugin for the node group (docs/deploying.md: Using an existing cluster)");
    }

    private static JsonNode notYet(String detail) {
        return Json.object().put("done", false).put("waitSeconds", WAIT_SECONDS).put("detail", detail);
    }

    private static boolean ready(Node node) {
        return readySince(node) != null;
    }

    /** When the node's Ready condition turned True; null while it is not Ready. */
    private static Instant readySince(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return null;
        }
        return node.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))
                .findFirst()
                .map(c -> c.getLastTransitionTime() == null ? Instant.EPOCH : Instant.parse(c.getLastTransitionTime()))
                .orElse(null);
    }
}
