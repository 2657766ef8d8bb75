package io.trainplane.workflow;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.local.LocalCloud;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The run's Jobs and their pods on the local cloud's Kubernetes API server (the fabric8 mock
 * server in CRUD mode), written as the Job controller, the training operator and the kubelet
 * write them: created from the run's own manifests, their status set through the status
 * subresource. No controller runs: each test says where its Job stands.
 */
final class JobsOnCluster {
    /** The label the Job controller puts on its pods (JobPods selects by it). */
    static final String JOB_NAME = "batch.kubernetes.io/job-name";

    private final StartedRun run;
    private final KubernetesClient api;
    private final String namespace;

    JobsOnCluster(StartedRun run) {
        this.run = run;
        this.api = run.cloud.kubernetes(LocalCloud.DEMO_CLUSTER).admin();
        this.namespace = run.names().namespace();
        api.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(namespace)
                        .endMetadata()
                        .build())
                .create();
    }

    /** The cluster as the steps reach it: every cluster name leads to this API server. */
    ClusterAccess access() {
        return cluster -> api;
    }

    KubernetesClient api() {
        return api;
    }

    WorkloadManifests manifests() {
        return new WorkloadManifests(RunContext.from(run.state).spec());
    }

    /** Creates {@code job} (one of the run's manifests) with {@code status}. */
    Job job(Job job, JobStatus status) {
        Job created =
                api.batch().v1().jobs().inNamespace(namespace).resource(job).create();
        created.setStatus(status);
        return api.batch().v1().jobs().inNamespace(namespace).resource(created).updateStatus();
    }

    static JobStatus running(Instant started, int active) {
        return new JobStatusBuilder()
                .withStartTime(started.toString())
                .withActive(active)
                .build();
    }

    static JobStatus complete(Instant started, Instant completed) {
        return new JobStatusBuilder()
                .withStartTime(started.toString())
                .withCompletionTime(completed.toString())
                .withSucceeded(1)
                .withConditions(new JobConditionBuilder()
                        .withType("Complete")
                        .withStatus("True")
                        .build())
                .build();
    }

    static JobStatus failed(Instant started, String reason, String message) {
        return new JobStatusBuilder()
                .withStartTime(started.toString())
                .withFailed(1)
                .withConditions(new JobConditionBuilder()
                        .withType("Failed")
                        .withStatus("True")
                        .withReason(reason)
                        .withMessage(message)
                        .build())
                .build();
    }

    /** A pod of Job {@code jobName} (its completion index 0) with {@code status}. */
    Pod pod(String jobName, String podName, PodStatus status) {
        return pod(jobName, podName, 0, null, status);
    }

    /** A pod of worker {@code index} on {@code node} (null: not bound). */
    Pod pod(String jobName, String podName, int index, String node, PodStatus status) {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(podName)
                .withNamespace(namespace)
                .withLabels(Map.of(JOB_NAME, jobName, "job-name", jobName))
                .withAnnotations(Map.of("batch.kubernetes.io/job-completion-index", Integer.toString(index)))
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("worker")
                .withImage("pytorch/pytorch:2.5.1")
                .endContainer()
                .endSpec()
                .build();
        Pod created = api.pods().inNamespace(namespace).resource(pod).create();
        created.setStatus(status);
        return api.pods().inNamespace(namespace).resource(created).updateStatus();
    }

    static PodStatus runningSince(Instant started) {
        return new PodStatusBuilder()
                .withPhase("Running")
                .withStartTime(started.toString())
                .withContainerStatuses(new ContainerStatusBuilder()
                        .withName("worker")
                        .withRestartCount(0)
                        .withNewState()
                        .withNewRunning()
                        .withStartedAt(started.toString())
                        .endRunning()
                        .endState()
                        .build())
                .build();
    }

    static PodStatus waiting(String reason, String message, int restarts) {
        return new PodStatusBuilder()
                .withPhase(restarts > 0 ? "Running" : "Pending")
                .withContainerStatuses(new ContainerStatusBuilder()
                        .withName("worker")
                        .withImage("pytorch/pytorch:2.5.1")
                        .withRestartCount(restarts)
                        .withNewState()
                        .withNewWaiting()
                        .withReason(reason)
                        .withMessage(message)
                        .endWaiting()
                        .endState()
                        .build())
                .build();
    }

    static PodStatus unscheduled(Instant since, String message) {
        return new PodStatusBuilder()
                .withPhase("Pending")
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("False")
                .withReason("Unschedulable")
                .withMessage(message)
                .withLastTransitionTime(since.toString())
                .endCondition()
                .build();
    }

    static PodStatus exited(String phase, int exitCode, String terminationMessage) {
        ContainerStatus container = new ContainerStatusBuilder()
                .withName("worker")
                .withRestartCount(0)
                .withNewState()
                .withNewTerminated()
                .withExitCode(exitCode)
                .withMessage(terminationMessage)
                .withReason(exitCode == 0 ? "Completed" : "Error")
                .endTerminated()
                .endState()
                .build();
        return new PodStatusBuilder()
                .withPhase(phase)
                .withContainerStatuses(container)
                .build();
    }

    /** The pods' logs: {@code log} for every pod (the API server's log endpoint answers with it). */
    void podLogs(String log) {
        run.cloud.kubernetes(LocalCloud.DEMO_CLUSTER).servingLogs((job, pod) -> Optional.of(log));
    }

    /** Creates the run's PyTorchJob with the operator's conditions, the last one {@code type} (True). */
    GenericKubernetesResource pyTorchJob(
            Instant started, Instant completed, String type, String reason, String message) {
        var job = manifests().pyTorchJob();
        PyTorchJobs.create(api, job);
        GenericKubernetesResource created =
                PyTorchJobs.get(api, namespace, job.getMetadata().getName());
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("startTime", started.toString());
        if (completed != null) {
            status.put("completionTime", completed.toString());
        }
        status.put(
                "conditions",
                List.of(
                        Map.of(
                                "type",
                                "Created",
                                "status",
                                "False",
                                "reason",
                                "PyTorchJobCreated",
                                "message",
                                "created"),
                        Map.of("type", type, "status", "True", "reason", reason, "message", message)));
        created.getAdditionalProperties().put("status", status);
        return api.genericKubernetesResources(PyTorchJobs.CONTEXT)
                .inNamespace(namespace)
                .resource(created)
                .updateStatus();
    }
}
