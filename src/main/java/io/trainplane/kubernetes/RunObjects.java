package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.spec.Names;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The Kubernetes objects one run owns: create-or-adopt on the way in, delete-by-label and
 * "what is left" on the way out. Every object carries the label {@code trainplane/run-id}.
 */
public final class RunObjects {
    public static final String RUN_LABEL = Names.RUN_ID_LABEL;

    private final KubernetesClient client;
    private final String runId;
    private final String namespace;

    public RunObjects(KubernetesClient client, String runId) {
        this.client = client;
        this.runId = runId;
        this.namespace = new Names(runId).namespace();
    }

    /**
     * Creates the object, or adopts the one already there when it belongs to this run (a retried
     * step). An object of the same name that belongs to something else is never touched.
     * (The mock API server has no server-side apply: create, then merge-patch labels on conflict.)
     */
    public void createOrAdopt(HasMetadata desired) {
        var kubeflowJob = KubeflowJobs.contextOf(desired);
        try {
            if (kubeflowJob != null) {
                KubeflowJobs.create(client, kubeflowJob, desired);
            } else {
                client.resource(desired).create();
            }
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
            HasMetadata existing = kubeflowJob != null
                    ? KubeflowJobs.get(
                            client,
                            kubeflowJob,
                            namespace,
                            desired.getMetadata().getName())
                    : client.resource(desired).get();
            String owner = existing == null
                    ? null
                    : existing.getMetadata().getLabels() == null
                            ? null
                            : existing.getMetadata().getLabels().get(RUN_LABEL);
            if (existing != null && !runId.equals(owner)) {
                throw new TerminalException(
                        FailureReason.NameTaken,
                        describe(desired) + " already exists and does not belong to run " + runId
                                + "; delete it or choose another runId");
            }
        }
    }

    /** Asks for every object of the run to be deleted; safe to repeat. Jobs and DaemonSets take their pods with them. */
    public void deleteAll() {
        if (client.namespaces().withName(namespace).get() == null) {
            deleteClusterScoped();
            return;
        }
        client.batch()
                .v1()
                .jobs()
                .inNamespace(namespace)
                .withLabel(RUN_LABEL, runId)
                .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                .delete();
        PyTorchJobs.delete(client, namespace, RUN_LABEL, runId);
        MpiJobs.delete(client, namespace, RUN_LABEL, runId);
        client.apps()
                .daemonSets()
                .inNamespace(namespace)
                .withLabel(RUN_LABEL, runId)
                .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                .delete();
        client.services().inNamespace(namespace).withLabel(RUN_LABEL, runId).delete();
        client.configMaps().inNamespace(namespace).withLabel(RUN_LABEL, runId).delete();
        client.serviceAccounts()
                .inNamespace(namespace)
                .withLabel(RUN_LABEL, runId)
                .delete();
        client.pods().inNamespace(namespace).withLabel(RUN_LABEL, runId).delete();
        client.persistentVolumeClaims()
                .inNamespace(namespace)
                .withLabel(RUN_LABEL, runId)
                .delete();
        if (namespacedRemaining().isEmpty()) {
            client.namespaces().withName(namespace).delete();
            deleteClusterScoped();
        }
    }

    /** The cluster-scoped objects (the volume's PV and StorageClass) go once nothing uses them. */
    private void deleteClusterScoped() {
        client.persistentVolumes().withLabel(RUN_LABEL, runId).delete();
        client.storage().v1().storageClasses().withLabel(RUN_LABEL, runId).delete();
    }

    /** What of the run still exists, as {@code Kind/namespace/name}; empty when teardown is done. */
    public List<String> remaining() {
        List<String> left = new ArrayList<>(namespacedRemaining());
        Namespace ns = client.namespaces().withName(namespace).get();
        if (ns != null) {
            left.add(ref(ns));
        }
        Stream.of(
                        client.persistentVolumes()
                                .withLabel(RUN_LABEL, runId)
                                .list()
                                .getItems(),
                        client.storage()
                                .v1()
                                .storageClasses()
                                .withLabel(RUN_LABEL, runId)
                                .list()
                                .getItems())
                .flatMap(List::stream)
                .map(RunObjects::ref)
                .forEach(left::add);
        return left;
    }

    private List<String> namespacedRemaining() {
        return Stream.of(
                        client.batch()
                                .v1()
                                .jobs()
                                .inNamespace(namespace)
                                .withLabel(RUN_LABEL, runId)
                                .list()
                                .getItems(),
                        PyTorchJobs.list(client, namespace, RUN_LABEL, runId),
                        MpiJobs.list(client, namespace, RUN_LABEL, runId),
                        client.apps()
                                .daemonSets()
                                .inNamespace(namespace)
                                .withLabel(RUN_LABEL, runId)
                                .list()
                                .getItems(),
                        client.pods()
                                .inNamespace(namespace)
                                .withLabel(RUN_LABEL, runId)
                                .list()
                                .getItems(),
                        client.services()
                                .inNamespace(namespace)
                                .withLabel(RUN_LABEL, runId)
                                .list()
                                .getItems(),
                        client.configMaps()
                                .inNamespace(namespace)
                                .withLabel(RUN_LABEL, runId)
                                .list()
                                .getItems(),
                        client.serviceAccounts()
                                .inNamespace(namespace)
                                .withLabel(RUN_LABEL, runId)
                                .list()
                                .getItems(),
                        client.persistentVolumeClaims()
                                .inNamespace(namespace)
                                .withLabel(RUN_LABEL, runId)
                                .list()
                                .getItems())
                .flatMap(List::stream)
                .map(RunObjects::ref)
                .toList();
    }

    public Job job(String name) {
        return client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
    }

    public String namespace() {
        return namespace;
    }

    public KubernetesClient client() {
        return client;
    }

    public static String ref(HasMetadata object) {
        String ns = object.getMetadata().getNamespace();
        return object.getKind() + "/" + (ns == null ? "" : ns + "/")
                + object.getMetadata().getName();
    }

    private static String describe(HasMetadata object) {
        return object.getKind() + " "
                + Objects.requireNonNullElse(object.getMetadata().getNamespace(), "") + "/"
                + object.getMetadata().getName();
    }
}
