package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the control plane's controllers read in one reconcile: each kind is listed once and listed
 * again only after a request changed the server's objects (its {@link SimulatedKubernetes#writeCount}
 * moved). The controllers ran some twenty lists per reconcile, on every step of every run, when
 * nothing had changed. The lists are shared: a controller that changes an object it read writes it
 * back, which makes the next read list again.
 */
final class ClusterReads {
    private final KubernetesClient client;
    private final SimulatedKubernetes server;
    private final Map<String, Listed<?>> listed = new HashMap<>();

    private record Listed<T>(long writeCount, List<T> items) {}

    ClusterReads(SimulatedKubernetes server) {
        this.server = server;
        this.client = server.admin();
    }

    KubernetesClient client() {
        return client;
    }

    /** Whether a CRD defines {@code plural} in {@code group} (the server keeps that answer until a CRD changes). */
    boolean serves(String group, String plural) {
        return server.serves(group, plural);
    }

    /**
     * Whether a Running pod has a container of {@code image} (any tag): an operator acts only while
     * its pod runs.
     */
    boolean running(String image) {
        return pods().stream()
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .flatMap(p -> p.getSpec().getContainers().stream())
                .anyMatch(c -> c.getImage() != null
                        && c.getImage().replaceFirst(":[^/:]*$", "").endsWith(image));
    }

    List<Node> nodes() {
        return current("nodes", () -> client.nodes().list().getItems());
    }

    List<Pod> pods() {
        return current("pods", () -> client.pods().inAnyNamespace().list().getItems());
    }

    List<Pod> pods(String namespace) {
        return pods().stream()
                .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
                .toList();
    }

    /** Pods that carry {@code label}, with {@code value} unless it is null. */
    List<Pod> podsLabeled(String label, String value) {
        return pods().stream()
                .filter(p -> p.getMetadata().getLabels() != null
                        && p.getMetadata().getLabels().containsKey(label)
                        && (value == null
                                || value.equals(p.getMetadata().getLabels().get(label))))
                .toList();
    }

    List<Deployment> deployments() {
        return current(
                "deployments",
                () -> client.apps().deployments().inAnyNamespace().list().getItems());
    }

    List<DaemonSet> daemonSets() {
        return current(
                "daemonsets",
                () -> client.apps().daemonSets().inAnyNamespace().list().getItems());
    }

    List<Job> jobs() {
        return current(
                "jobs", () -> client.batch().v1().jobs().inAnyNamespace().list().getItems());
    }

    @SuppressWarnings("unchecked")
    private <T> List<T> current(String kind, Supplier<List<T>> list) {
        long now = server.writeCount();
        Listed<?> last = listed.get(kind);
        if (last != null && last.writeCount() == now) {
            return (List<T>) last.items();
        }
        // The count before listing: a write that lands while the list is read makes the next call list again.
        List<T> items = List.copyOf(list.get());
        listed.put(kind, new Listed<>(now, items));
        return items;
    }
}
