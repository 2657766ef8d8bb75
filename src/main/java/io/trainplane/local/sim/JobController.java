package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The part of kube-controller-manager and the kubelet that local mode needs: Jobs get pods (Indexed
 * Jobs one per completion index), pods are bound by the cluster's {@link Scheduler} (a pod no node
 * takes stays Pending), then go Running → Succeeded or Failed in simulated time, Jobs get their Complete/Failed conditions, and pods of deleted Jobs
 * are garbage-collected. What the pods "do" comes from a {@link PodBehaviour}.
 */
public final class JobController {
    static final String JOB_NAME = "batch.kubernetes.io/job-name";
    static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
    static final Duration SCHEDULING = Duration.ofSeconds(5);

    private final KubernetesClient client;
    private final ClusterReads reads;
    private final PodBehaviour behaviour;
    private final Scheduler scheduler;
    private final VolumeMounts mounts;

    JobController(ClusterReads reads, PodBehaviour behaviour, Scheduler scheduler, VolumeMounts.MountTargets efs) {
        this.reads = reads;
        this.client = reads.client();
        this.behaviour = behaviour;
        this.scheduler = scheduler;
        this.mounts = new VolumeMounts(reads, efs);
    }

    /** When the scheduler bound the pod (its PodScheduled=True condition), or null while it is unbound. */
    static Instant boundAt(Pod pod) {
        if (pod.getSpec().getNodeName() == null) {
            return null;
        }
        return Scheduler.scheduledCondition(pod)
                .filter(c -> "True".equals(c.getStatus()) && c.getLastTransitionTime() != null)
                .map(c -> Instant.parse(c.getLastTransitionTime()))
                .orElse(null);
    }

    /** Moves the world forward to {@code now}. */
    public void reconcile(Instant now) {
        List<Job> jobs = reads.jobs();
        for (Job job : jobs) {
            reconcile(job, now);
        }
        collectGarbage(jobs);
    }

    private void reconcile(Job job, Instant now) {
        if (isFinished(job)) {
            return;
        }
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        if (behaviour.deletedBySomeone(job, now)) {
            client.batch().v1().jobs().inNamespace(ns).withName(name).delete();
            return;
        }
        List<Pod> pods = pods(ns, name);
        if (pods.isEmpty()) {
            int completions =
                    job.getSpec().getCompletions() == null ? 1 : job.getSpec().getCompletions();
            for (int index = 0; index < completions; index++) {
                client.pods().inNamespace(ns).resource(newPod(job, index, now)).create();
            }
            job.setStatus(new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder()
                    .withStartTime(now.toString())
                    .withActive(completions)
                    .withSucceeded(0)
                    .withFailed(0)
                    .build());
            client.batch().v1().jobs().inNamespace(ns).resource(job).updateStatus();
            return;
        }
        for (Pod pod : pods) {
            advance(job, pod, now);
        }
        updateJobStatus(job, pods(ns, name), now);
    }

    void advance(Job job, Pod pod, Instant now) {
        String phase = pod.getStatus().getPhase();
        Instant created = Instant.parse(pod.getMetadata().getAnnotations().get("trainplane.local/created"));
        var stuck = behaviour.stuck(job, pod, created);
        if (stuck.isPresent()) {
            if (!stuck.get().equals(pod.getStatus())) {
                pod.setStatus(stuck.get());
                client.pods()
                        .inNamespace(pod.getMetadata().getNamespace())
                        .resource(pod)
                        .updateStatus();
            }
            return;
        }
        if ("Pending".equals(phase)) {
            pod = scheduler.schedule(pod, now);
            Instant bound = boundAt(pod);
            if (bound == null) {
                return;
            }
            Instant start = (bound.isAfter(created) ? bound : created).plus(SCHEDULING);
            if (now.isBefore(start)) {
                return;
            }
            var mountFailure = mounts.failure(pod);
            if (mountFailure.isPresent()) {
                mounts.waiting(pod, mountFailure.get(), now);
                return;
            }
            pod.getStatus().setContainerStatuses(null);
            pod.getStatus().setPhase("Running");
            pod.getStatus().setStartTime(start.toString());
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .resource(pod)
                    .updateStatus();
        } else if ("Running".equals(phase)) {
            Instant started = Instant.parse(pod.getStatus().getStartTime());
            Pod running = pod;
            PodBehaviour.Outcome outcome = unresolvedRendezvous(running, started)
                    .or(() -> behaviour.poll(job, running, client, Duration.between(started, now)))
                    .orElse(null);
            if (outcome != null && !now.isBefore(started.plus(outcome.runtime()))) {
                pod.getStatus().setPhase(outcome.exitCode() == 0 ? "Succeeded" : "Failed");
                pod.getStatus()
                        .setContainerStatuses(List.of(new ContainerStatusBuilder()
                                .withName(pod.getSpec().getContainers().get(0).getName())
                                .withImage(pod.getSpec().getContainers().get(0).getImage())
                                .withNewState()
                                .withNewTerminated()
                                .withExitCode(outcome.exitCode())
                                .withReason(outcome.exitCode() == 0 ? "Completed" : "Error")
                                .withMessage(outcome.terminationMessage())
                                .withStartedAt(started.toString())
                                .withFinishedAt(started.plus(outcome.runtime()).toString())
                                .endTerminated()
                                .endState()
                                .build()));
                client.pods()
                        .inNamespace(pod.getMetadata().getNamespace())
                        .resource(pod)
                        .updateStatus();
            }
        }
    }

    /** A pod whose rendezvous is a Service DNS name fails when no CoreDNS pod answers ({@link ClusterDns}). */
    private Optional<PodBehaviour.Outcome> unresolvedRendezvous(Pod pod, Instant started) {
        return ClusterDns.rendezvous(pod)
                .filter(endpoint -> !ClusterDns.answers(reads))
                .map(endpoint -> new PodBehaviour.Outcome(
                        ClusterDns.RENDEZVOUS_TIMEOUT, 1, ClusterDns.unresolved(endpoint, started)));
    }

    private void updateJobStatus(Job job, List<Pod> pods, Instant now) {
        int completions =
                job.getSpec().getCompletions() == null ? 1 : job.getSpec().getCompletions();
        long succeeded = pods.stream()
                .filter(p -> "Succeeded".equals(p.getStatus().getPhase()))
                .count();
        long failed = pods.stream()
                .filter(p -> "Failed".equals(p.getStatus().getPhase()))
                .count();
        var status = job.getStatus();
        var before = new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder(status).build();
        status.setSucceeded((int) succeeded);
        status.setFailed((int) failed);
        status.setActive((int) (pods.size() - succeeded - failed));
        if (failed > 0) {
            status.setActive(0);
            status.setConditions(List.of(new JobConditionBuilder()
                    .withType("Failed")
                    .withStatus("True")
                    .withReason("FailedIndexes")
                    .withMessage("Job has failed indexes")
                    .withLastTransitionTime(now.toString())
                    .build()));
        } else if (succeeded >= completions) {
            status.setCompletionTime(now.toString());
            status.setConditions(List.of(
                    new JobConditionBuilder()
                            .withType("SuccessCriteriaMet")
                            .withStatus("True")
                            .withLastTransitionTime(now.toString())
                            .build(),
                    new JobConditionBuilder()
                            .withType("Complete")
                            .withStatus("True")
                            .withLastTransitionTime(now.toString())
                            .build()));
        }
        if (status.equals(before)) {
            return;
        }
        client.batch()
                .v1()
                .jobs()
                .inNamespace(job.getMetadata().getNamespace())
                .resource(job)
                .updateStatus();
    }

    /** Pods whose Job is gone go too, as the garbage collector does for background deletion. */
    private void collectGarbage(List<Job> jobs) {
        Set<String> alive = jobs.stream()
                .map(j -> j.getMetadata().getNamespace() + "/" + j.getMetadata().getName())
                .collect(Collectors.toSet());
        for (Pod pod : reads.podsLabeled(JOB_NAME, null)) {
            String owner = pod.getMetadata().getNamespace() + "/"
                    + pod.getMetadata().getLabels().get(JOB_NAME);
            if (!alive.contains(owner)) {
                client.pods()
                        .inNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName())
                        .delete();
            }
        }
    }

    private List<Pod> pods(String namespace, String jobName) {
        return reads.podsLabeled(JOB_NAME, jobName).stream()
                .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
                .toList();
    }

    private static boolean isFinished(Job job) {
        return job.getStatus() != null
                && job.getStatus().getConditions() != null
                && job.getStatus().getConditions().stream()
                        .anyMatch(c -> "True".equals(c.getStatus())
                                && Set.of("Complete", "Failed").contains(c.getType()));
    }

    private static Pod newPod(Job job, int index, Instant now) {
        String jobName = job.getMetadata().getName();
        boolean indexed = "Indexed".equals(job.getSpec().getCompletionMode());
        Map<String, String> labels =
                new HashMap<>(job.getSpec().getTemplate().getMetadata().getLabels());
        labels.put(JOB_NAME, jobName);
        labels.put("job-name", jobName);
        Map<String, String> annotations = new HashMap<>();
        annotations.put("trainplane.local/created", now.toString());
        if (indexed) {
            labels.put(COMPLETION_INDEX, Integer.toString(index));
            annotations.put(COMPLETION_INDEX, Integer.toString(index));
        }
        String name =
                indexed ? jobName + "-" + index + "-" + suffix(jobName, index) : jobName + "-" + suffix(jobName, index);
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(labels)
                .withAnnotations(annotations)
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("batch/v1")
                        .withKind("Job")
                        .withName(jobName)
                        .withUid(job.getMetadata().getUid())
                        .withController(true)
                        .build())
                .endMetadata()
                .withSpec(job.getSpec().getTemplate().getSpec())
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build();
    }

    private static String suffix(String jobName, int index) {
        return Integer.toString(Math.abs((jobName + index).hashCode()) % 46656, 36);
    }
}
