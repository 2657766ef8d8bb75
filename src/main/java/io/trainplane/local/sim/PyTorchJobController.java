package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainplane.kubernetes.PyTorchJobs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * The part of the Kubeflow training operator local mode needs: a PyTorchJob gets one pod per
 * replica (Master, Workers), its pods run as the {@link JobController} runs a Job's, and its
 * status gets the operator's conditions (Created, Running, Succeeded or Failed) through the
 * status subresource. Pods of deleted PyTorchJobs are garbage-collected.
 */
public final class PyTorchJobController {
    static final String REPLICA_INDEX = "training.kubeflow.org/replica-index";
    /** Where the operator's standalone manifests install it, and the image its pod runs. */
    static final String OPERATOR_NAMESPACE = "kubeflow";

    /** The operator's image by its repository's last segment: releases publish it under several paths (ghcr.io/kubeflow/training-v1/, kubeflow/). */
    static final String OPERATOR_IMAGE = "/training-operator";

    private final KubernetesClient client;
    private final ClusterReads reads;
    private final PodBehaviour behaviour;
    private final JobController pods;
    /**
     * The pods each PyTorchJob (by uid) lost and had replaced: gone from the API server, they are
     * what the simulated training remembers of its interruptions (its checkpoints say where it was).
     */
    private final Map<String, List<Pod>> lost = new ConcurrentHashMap<>();

    static final int NO_EXIT_CODE = 0xbeef;

    PyTorchJobController(ClusterReads reads, PodBehaviour behaviour, JobController pods) {
        this.reads = reads;
        this.client = reads.client();
        this.behaviour = behaviour;
        this.pods = pods;
    }

    /**
     * Acts only while the operator's pod runs on the cluster and the PyTorchJob CRD is there:
     * without the operator a PyTorchJob just sits there; without the CRD there is none to watch.
     */
    public void reconcile(Instant now) {
        boolean running = reads.running(OPERATOR_IMAGE);
        if (!running || !reads.serves(PyTorchJobs.CONTEXT.getGroup(), PyTorchJobs.CONTEXT.getPlural())) {
            return;
        }
        List<GenericKubernetesResource> jobs = client.genericKubernetesResources(PyTorchJobs.CONTEXT)
                .inAnyNamespace()
                .list()
                .getItems();
        for (GenericKubernetesResource job : jobs) {
            reconcile(job, now);
        }
        collectGarbage(jobs);
    }

    private void reconcile(GenericKubernetesResource job, Instant now) {
        if (OperatorConditions.finished(job)) {
            return;
        }
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        Job asJob = asJob(job);
        if (behaviour.deletedBySomeone(asJob, now)) {
            client.genericKubernetesResources(PyTorchJobs.CONTEXT)
                    .inNamespace(ns)
                    .withName(name)
                    .delete();
            return;
        }
        List<Pod> current = pods(ns, name);
        if (suspended(job)) {
            // runPolicy.suspend (its CRD, v1.9.4: "the Job controller will delete all active Pods"):
            // the pods deleted, each terminated gracefully, none created, the job Suspended.
            pods.stop(asJob, current, now);
            if (!OperatorConditions.isTrue(job, "Suspended")) {
                setStatus(
                        job,
                        (String) PyTorchJobs.status(job, "startTime"),
                        null,
                        condition("Suspended", "PyTorchJobSuspended", "PyTorchJob " + name + " is suspended.", now));
            }
            return;
        }
        if (current.isEmpty()) {
            replicas(job).forEach((type, count) -> {
                for (int i = 0; i < count; i++) {
                    PodCreations.create(client, job, newPod(job, type, i, now), now);
                }
            });
            setStatus(
                    job,
                    now.toString(),
                    null,
                    condition("Created", "PyTorchJobCreated", "PyTorchJob " + name + " is created.", now));
            return;
        }
        List<Pod> lostSoFar = lost.computeIfAbsent(job.getMetadata().getUid(), k -> new CopyOnWriteArrayList<>());
        for (Pod pod : current) {
            List<Pod> siblings = new ArrayList<>(current);
            siblings.addAll(lostSoFar);
            pods.advance(asJob, pod, siblings, now);
        }
        current = pods(ns, name);
        long failed = 0;
        String failedType = null;
        String restartedType = null;
        for (Pod pod : current) {
            if (!"Failed".equals(pod.getStatus().getPhase())) {
                continue;
            }
            String type = replicaType(job, pod);
            if (retryable(restartPolicy(job, type), exitCode(pod))) {
                // Deleted and created again for the same replica index, under the same name.
                lostSoFar.add(pod);
                client.pods()
                        .inNamespace(ns)
                        .withName(pod.getMetadata().getName())
                        .delete();
                PodCreations.create(client, job, newPod(job, type, replicaIndex(pod), now), now);
                restartedType = type;
            } else {
                failed++;
                failedType = type;
            }
        }
        current = pods(ns, name);
        long succeeded = current.stream()
                .filter(p -> "Succeeded".equals(p.getStatus().getPhase()))
                .count();
        long running = current.stream()
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .count();
        String start = (String) PyTorchJobs.status(job, "startTime");
        if (failed > 0) {
            setStatus(
                    job,
                    start,
                    now.toString(),
                    condition(
                            "Failed",
                            "PyTorchJobFailed",
                            "PyTorchJob " + name + " is failed because " + failed + " " + failedType
                                    + " replica(s) failed.",
                            now));
        } else if (restartedType != null) {
            setStatus(
                    job,
                    start,
                    null,
                    condition(
                            "Restarting",
                            "PyTorchJobRestarting",
                            "PyTorchJob " + name + " is restarting because 1 " + restartedType + " replica(s) failed.",
                            now));
        } else if (succeeded == current.size()) {
            setStatus(
                    job,
                    start,
                    now.toString(),
                    condition(
                            "Succeeded",
                            "PyTorchJobSucceeded",
                            "PyTorchJob " + name + " is successfully completed.",
                            now));
        } else if (running > 0 && !OperatorConditions.isTrue(job, "Running")) {
            setStatus(
                    job,
                    start,
                    null,
                    condition("Running", "PyTorchJobRunning", "PyTorchJob " + name + " is running.", now));
        }
    }

    /** The conditions so far (each earlier one now "False"), then {@code latest}. */
    @SuppressWarnings("unchecked")
    private void setStatus(
            GenericKubernetesResource job, String startTime, String completionTime, Map<String, Object> latest) {
        List<Map<String, Object>> conditions = new ArrayList<>();
        if (PyTorchJobs.status(job, "conditions") instanceof List<?> old) {
            for (Object c : old) {
                Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) c);
                copy.put("status", "False");
                conditions.add(copy);
            }
        }
        conditions.add(latest);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("startTime", startTime);
        if (completionTime != null) {
            status.put("completionTime", completionTime);
        }
        status.put("conditions", conditions);
        job.getAdditionalProperties().put("status", status);
        client.genericKubernetesResources(PyTorchJobs.CONTEXT)
                .inNamespace(job.getMetadata().getNamespace())
                .resource(job)
                .updateStatus();
    }

    /** A Kubeflow job's {@code spec.runPolicy.suspend} (a PyTorchJob's or an MPIJob's). */
    static boolean suspended(GenericKubernetesResource job) {
        return job.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                && spec.get("runPolicy") instanceof Map<?, ?> runPolicy
                && Boolean.TRUE.equals(runPolicy.get("suspend"));
    }

    private static Map<String, Object> condition(String type, String reason, String message, Instant now) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", "True");
        c.put("reason", reason);
        c.put("message", message);
        c.put("lastTransitionTime", now.toString());
        c.put("lastUpdateTime", now.toString());
        return c;
    }

    private void collectGarbage(List<GenericKubernetesResource> jobs) {
        Set<String> alive = jobs.stream()
                .map(j -> j.getMetadata().getNamespace() + "/" + j.getMetadata().getName())
                .collect(Collectors.toSet());
        for (Pod pod : reads.podsLabeled(PyTorchJobs.JOB_NAME_LABEL, null)) {
            String owner = pod.getMetadata().getNamespace() + "/"
                    + pod.getMetadata().getLabels().get(PyTorchJobs.JOB_NAME_LABEL);
            if (!alive.contains(owner)) {
                client.pods()
                        .inNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName())
                        .delete();
            }
        }
    }

    private List<Pod> pods(String namespace, String jobName) {
        return reads.podsLabeled(PyTorchJobs.JOB_NAME_LABEL, jobName).stream()
                .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
                .toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> replicaSpecs(GenericKubernetesResource job) {
        Map<String, Object> spec =
                (Map<String, Object>) job.getAdditionalProperties().get("spec");
        return (Map<String, Map<String, Object>>) spec.get("pytorchReplicaSpecs");
    }

    private static Map<String, Integer> replicas(GenericKubernetesResource job) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        replicaSpecs(job)
                .forEach((type, spec) -> counts.put(type, ((Number) spec.getOrDefault("replicas", 1)).intValue()));
        return counts;
    }

    /** How many pods the PyTorchJob has: its replicas of every type. */
    static int replicaCount(GenericKubernetesResource job) {
        return replicas(job).values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The pod's place among the job's: the Master first, then the Workers by index. */
    static int rank(Pod pod) {
        String type = pod.getMetadata().getLabels().get(PyTorchJobs.REPLICA_TYPE_LABEL);
        return "master".equals(type) ? 0 : 1 + replicaIndex(pod);
    }

    static int replicaIndex(Pod pod) {
        return Integer.parseInt(pod.getMetadata().getLabels().getOrDefault(REPLICA_INDEX, "0"));
    }

    /** The replica type as the PyTorchJob spells it (Master, Worker) from the pod's lower-case label. */
    private static String replicaType(GenericKubernetesResource job, Pod pod) {
        String label = pod.getMetadata().getLabels().get(PyTorchJobs.REPLICA_TYPE_LABEL);
        return replicaSpecs(job).keySet().stream()
                .filter(t -> t.toLowerCase(Locale.ROOT).equals(label))
                .findFirst()
                .orElse("Master");
    }

    private static String restartPolicy(GenericKubernetesResource job, String type) {
        return String.valueOf(replicaSpecs(job).get(type).getOrDefault("restartPolicy", "Never"));
    }

    /**
     * The exit code of the {@code pytorch} container, or the operator's magic 0xbeef when it has
     * none (a pod whose node went before its container ended): pkg/controller.v1/common/pod.go,
     * ReconcilePods.
     */
    private static int exitCode(Pod pod) {
        if (pod.getStatus().getContainerStatuses() == null) {
            return NO_EXIT_CODE;
        }
        return pod.getStatus().getContainerStatuses().stream()
                .filter(c -> "pytorch".equals(c.getName())
                        && c.getState() != null
                        && c.getState().getTerminated() != null)
                .map(c -> c.getState().getTerminated().getExitCode())
                .findFirst()
                .orElse(NO_EXIT_CODE);
    }

    /**
     * Whether the operator deletes a Failed pod and creates it again (ReconcilePods): always under
     * OnFailure and Always; under ExitCode only for exit codes 128-255 (signals: "1-127: permanent
     * error, do not restart; 128-255: retryable error, will restart the pod", RestartPolicyExitCode
     * in pkg/apis/kubeflow.org/v1/common_types.go, IsRetryableExitCode in pkg/util/train); never under Never.
     */
    static boolean retryable(String restartPolicy, int exitCode) {
        return switch (restartPolicy) {
            case "OnFailure", "Always" -> true;
            case "ExitCode" -> exitCode >= 128;
            default -> false;
        };
    }

    private static PodTemplateSpec template(GenericKubernetesResource job, String type) {
        return Serialization.jsonMapper()
                .convertValue(replicaSpecs(job).get(type).get("template"), PodTemplateSpec.class);
    }

    /** The PyTorchJob seen as a Job with the Master's template: what a {@link PodBehaviour} reads. */
    static Job asJob(GenericKubernetesResource job) {
        return new JobBuilder()
                .withMetadata(job.getMetadata())
                .withNewSpec()
                .withCompletions(replicaCount(job))
                .withTemplate(template(job, "Master"))
                .endSpec()
                .withNewStatus()
                .withStartTime((String) PyTorchJobs.status(job, "startTime"))
                .endStatus()
                .build();
    }

    @SuppressWarnings("unchecked")
    private static Pod newPod(GenericKubernetesResource job, String type, int index, Instant now) {
        String jobName = job.getMetadata().getName();
        PodTemplateSpec template = template(job, type);
        String replica = type.toLowerCase(Locale.ROOT);
        Map<String, String> labels = new HashMap<>(template.getMetadata().getLabels());
        labels.put(PyTorchJobs.JOB_NAME_LABEL, jobName);
        labels.put(PyTorchJobs.REPLICA_TYPE_LABEL, replica);
        labels.put(REPLICA_INDEX, Integer.toString(index));
        var spec = template.getSpec();
        // ExitCode is the operator's, not the kubelet's: the pod gets Never and the operator decides
        // (setRestartPolicy in the training operator's pkg/controller.v1).
        String policy = restartPolicy(job, type);
        spec.setRestartPolicy("ExitCode".equals(policy) ? "Never" : policy);
        // torchrun's --max-restarts from elasticPolicy.maxRestarts, as PET_MAX_RESTARTS (EnvMaxRestarts of
        // the training operator's elastic env generator, pkg/controller.v1/pytorch/elastic.go).
        if (((Map<String, Object>) job.getAdditionalProperties().get("spec")).get("elasticPolicy")
                        instanceof Map<?, ?> elastic
                && elastic.get("maxRestarts") instanceof Number restarts) {
            for (var c : spec.getContainers()) {
                List<io.fabric8.kubernetes.api.model.EnvVar> env =
                        c.getEnv() == null ? new ArrayList<>() : new ArrayList<>(c.getEnv());
                env.add(new io.fabric8.kubernetes.api.model.EnvVar(
                        "PET_MAX_RESTARTS", Integer.toString(restarts.intValue()), null));
                c.setEnv(env);
            }
        }
        return new PodBuilder()
                .withNewMetadata()
                .withName(jobName + "-" + replica + "-" + index)
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(labels)
                .withAnnotations(Map.of("trainplane.local/created", now.toString()))
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion(job.getApiVersion())
                        .withKind(job.getKind())
                        .withName(jobName)
                        .withUid(job.getMetadata().getUid())
                        .withController(true)
                        .build())
                .endMetadata()
                .withSpec(spec)
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build();
    }
}
