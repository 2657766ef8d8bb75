package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnPodConditionsPattern;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.JobPods;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The part of kube-controller-manager and the kubelet that local mode needs: Jobs get pods (Indexed
 * Jobs one per completion index), pods are bound by the cluster's {@link Scheduler} (a pod no node
 * takes stays Pending), pull their images ({@link ImagePulls}), then go Running → Succeeded or Failed in simulated time, Jobs get their Complete/Failed conditions, and pods of deleted Jobs
 * are garbage-collected. What the pods "do" comes from a {@link PodBehaviour}.
 */
public final class JobController {
    static final String JOB_NAME = "batch.kubernetes.io/job-name";
    static final String COMPLETION_INDEX = JobPods.COMPLETION_INDEX;
    static final Duration SCHEDULING = Duration.ofSeconds(5);
    static final String IGNORE = "Ignore";
    static final String FAIL_JOB = "FailJob";

    private final KubernetesClient client;
    private final ClusterReads reads;
    private final PodBehaviour behaviour;
    private final Scheduler scheduler;
    private final VolumeMounts mounts;
    private final ImagePulls pulls;

    JobController(
            ClusterReads reads,
            PodBehaviour behaviour,
            Scheduler scheduler,
            VolumeMounts.MountTargets efs,
            ImagePulls pulls) {
        this.reads = reads;
        this.client = reads.client();
        this.behaviour = behaviour;
        this.scheduler = scheduler;
        this.mounts = new VolumeMounts(reads, efs);
        this.pulls = pulls;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
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
        if (Boolean.TRUE.equals(job.getSpec().getSuspend())) {
            suspend(job, pods, now);
            return;
        }
        if (pods.isEmpty()) {
            int completions =
                    job.getSpec().getCompletions() == null ? 1 : job.getSpec().getCompletions();
            for (int index = 0; index < completions; index++) {
                PodCreations.create(client, job, newPod(job, index, 0, now), now);
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
            advance(job, pod, pods, now);
        }
        pods = pods(ns, name);
        if (replaceIgnored(job, pods, now)) {
            pods = pods(ns, name);
        }
        updateJobStatus(job, pods, now);
    }

    /**
     * A suspended Job (https://kubernetes.io/docs/concepts/workloads/controllers/job/#suspending-a-job):
     * its active pods deleted, each terminated gracefully ({@link #stop}), none created; its status
     * says Suspended, with no pod active.
     */
    private void suspend(Job job, List<Pod> pods, Instant now) {
        stop(job, pods, now);
        var status =
                job.getStatus() == null ? new io.fabric8.kubernetes.api.model.batch.v1.JobStatus() : job.getStatus();
        boolean said = status.getConditions() != null
                && status.getConditions().stream()
                        .anyMatch(c -> "Suspended".equals(c.getType()) && "True".equals(c.getStatus()));
        if (said && Integer.valueOf(0).equals(status.getActive())) {
            return;
        }
        List<io.fabric8.kubernetes.api.model.batch.v1.JobCondition> conditions =
                new java.util.ArrayList<>(status.getConditions() == null ? List.of() : status.getConditions());
        if (!said) {
            conditions.add(new JobConditionBuilder()
                    .withType("Suspended")
                    .withStatus("True")
                    .withReason("JobSuspended")
                    .withMessage("Job suspended")
                    .withLastTransitionTime(now.toString())
                    .build());
        }
        status.setConditions(conditions);
        status.setActive(0);
        job.setStatus(status);
        client.batch()
                .v1()
                .jobs()
                .inNamespace(job.getMetadata().getNamespace())
                .resource(job)
                .updateStatus();
    }

    /**
     * Deletes the pods of {@code pods} that are pending or running, each terminated as the kubelet
     * terminates a deleted pod ({@link PodBehaviour#terminate}: SIGTERM, its grace period); a
     * controller that suspends its workload does this.
     */
    void stop(Job job, List<Pod> pods, Instant now) {
        for (Pod pod : pods) {
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            if (phase == null || "Pending".equals(phase) || "Running".equals(phase)) {
                behaviour.terminate(job, pod, now);
                client.pods()
                        .inNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName())
                        .delete();
            }
        }
    }

    void advance(Job job, Pod pod, Instant now) {
        advance(job, pod, List.of(pod), now);
    }

    /** {@code siblings}: every pod of the job, the interrupted and replaced ones too. */
    void advance(Job job, Pod pod, List<Pod> siblings, Instant now) {
        String phase = pod.getStatus().getPhase();
        if (stuckOrStarted(job, pod, now)) {
            return;
        }
        if ("Running".equals(phase)) {
            run(job, pod, siblings, now);
        }
    }

    /**
     * Starts a pod that then runs until it is deleted (an MPIJob's worker: its sshd serves the
     * launcher's mpirun): scheduled, its volumes mounted and its images pulled as any pod's, stuck
     * where the behaviour says, but never ended by it.
     */
    void startServing(Job job, Pod pod, Instant now) {
        stuckOrStarted(job, pod, now);
    }

    /** Whether the pod is stuck or was Pending (and now started, or still waits to); false for a running pod. */
    private boolean stuckOrStarted(Job job, Pod pod, Instant now) {
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
            return true;
        }
        if ("Pending".equals(phase)) {
            start(pod, created, now);
            return true;
        }
        return false;
    }

    private void start(Pod pod, Instant created, Instant now) {
        pod = scheduler.schedule(pod, now);
        Instant bound = boundAt(pod);
        if (bound == null) {
            return;
        }
        Instant kubelet = later(bound, created);
        if (now.isBefore(kubelet.plus(SCHEDULING))) {
            return;
        }
        // The kubelet mounts the pod's volumes before it pulls its images and starts its
        // containers (https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-phase:
        // Pending "includes time a Pod spends ... downloading container images").
        var mountFailure = mounts.failure(pod);
        if (mountFailure.isPresent()) {
            mounts.waiting(pod, mountFailure.get(), now);
            return;
        }
        // The pulls follow the pod's sandbox (SCHEDULING after the binding); a pod that waited
        // for its volumes turns to its images now.
        boolean waitedForVolumes = pulls.planned(pod).isEmpty()
                && pod.getStatus().getContainerStatuses() != null
                && !pod.getStatus().getContainerStatuses().isEmpty();
        Instant start = pulls.ready(pod, waitedForVolumes ? now : kubelet.plus(SCHEDULING));
        if (now.isBefore(start)) {
            pulls.waiting(client, pod, now);
            return;
        }
        pulls.writeEvents(client, pod, now);
        pod.getStatus().setContainerStatuses(null);
        pod.getStatus().setPhase("Running");
        pod.getStatus().setStartTime(start.toString());
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .resource(pod)
                .updateStatus();
    }

    private void run(Job job, Pod pod, List<Pod> siblings, Instant now) {
        Instant started = Instant.parse(pod.getStatus().getStartTime());
        Pod running = pod;
        if (failedInit(job, running, started, now, client)) {
            return;
        }
        PodBehaviour.Outcome outcome = unresolvedRendezvous(running, started)
                .or(() -> behaviour.poll(job, running, siblings, client, Duration.between(started, now)))
                .orElse(null);
        boolean sidecarFailed = behaviour
                .sidecarFailure(running)
                .map(message -> sidecarFailed(running, message, now))
                .orElse(false);
        if (outcome != null && !now.isBefore(started.plus(outcome.runtime()))) {
            pod.getStatus().setPhase(outcome.exitCode() == 0 ? "Succeeded" : "Failed");
            pod.getStatus()
                    .setContainerStatuses(terminated(
                            pod,
                            outcome.exitCode(),
                            outcome.terminationMessage(),
                            started.toString(),
                            started.plus(outcome.runtime())));
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .resource(pod)
                    .updateStatus();
        } else if (sidecarFailed) {
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .resource(pod)
                    .updateStatus();
        }
    }

    /**
     * The pod's sidecar as the kubelet shows one that failed and is restarted (restartPolicy Always,
     * https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/): running again, its
     * failed run in {@code lastState}, its restarts counted. It does not fail the pod. Set once;
     * whether it was set now.
     */
    private static boolean sidecarFailed(Pod pod, String message, Instant now) {
        if (pod.getStatus().getInitContainerStatuses() != null
                && !pod.getStatus().getInitContainerStatuses().isEmpty()) {
            return false;
        }
        var sidecar = pod.getSpec().getInitContainers().get(0);
        pod.getStatus()
                .setInitContainerStatuses(List.of(new ContainerStatusBuilder()
                        .withName(sidecar.getName())
                        .withImage(sidecar.getImage())
                        .withRestartCount(1)
                        .withStarted(true)
                        .withReady(true)
                        .withNewState()
                        .withNewRunning()
                        .withStartedAt(now.toString())
                        .endRunning()
                        .endState()
                        .withNewLastState()
                        .withNewTerminated()
                        .withExitCode(message.equals(PodS3.NO_CREDENTIALS) ? 255 : 1)
                        .withReason("Error")
                        .withMessage(message)
                        .withFinishedAt(now.toString())
                        .endTerminated()
                        .endLastState()
                        .build()));
        return true;
    }

    /**
     * Whether the pod's init container failed and the pod with it: with restartPolicy Never the pod
     * fails and its containers never start
     * (https://kubernetes.io/docs/concepts/workloads/pods/init-containers/#detailed-behavior); the
     * init container's status says how it ended, the others wait in PodInitializing. Lenient: the
     * pod runs (phase Running) while its init containers do, where the kubelet keeps it Pending.
     */
    private boolean failedInit(Job job, Pod pod, Instant started, Instant now, KubernetesClient client) {
        // Sidecars (restartPolicy Always) run beside the containers: only the others must succeed first.
        if (pod.getSpec().getInitContainers() == null
                || pod.getSpec().getInitContainers().stream().allMatch(c -> "Always".equals(c.getRestartPolicy()))) {
            return false;
        }
        var failure = behaviour.initFailure(job, pod, client);
        if (failure.isEmpty()) {
            return false;
        }
        PodBehaviour.Outcome outcome = failure.get().outcome();
        if (now.isBefore(started.plus(outcome.runtime()))) {
            return true;
        }
        Instant finished = started.plus(outcome.runtime());
        pod.getStatus().setPhase("Failed");
        pod.getStatus()
                .setInitContainerStatuses(List.of(new ContainerStatusBuilder()
                        .withName(failure.get().failedContainer())
                        .withImage(pod.getSpec().getInitContainers().stream()
                                .filter(c -> c.getName().equals(failure.get().failedContainer()))
                                .map(io.fabric8.kubernetes.api.model.Container::getImage)
                                .findFirst()
                                .orElse(null))
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(outcome.exitCode())
                        .withReason("Error")
                        .withMessage(outcome.terminationMessage())
                        .withStartedAt(started.toString())
                        .withFinishedAt(finished.toString())
                        .endTerminated()
                        .endState()
                        .build()));
        pod.getStatus()
                .setContainerStatuses(List.of(
                        WaitingContainer.of(pod.getSpec().getContainers().get(0), "PodInitializing", null)));
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .resource(pod)
                .updateStatus();
        return true;
    }

    /** The pod's (first) container as terminated with {@code exitCode}, as the kubelet reports it. */
    static List<io.fabric8.kubernetes.api.model.ContainerStatus> terminated(
            Pod pod, int exitCode, String message, String startedAt, Instant finishedAt) {
        return List.of(new ContainerStatusBuilder()
                .withName(pod.getSpec().getContainers().get(0).getName())
                .withImage(pod.getSpec().getContainers().get(0).getImage())
                .withNewState()
                .withNewTerminated()
                .withExitCode(exitCode)
                .withReason(exitCode == 0 ? "Completed" : "Error")
                .withMessage(message)
                .withStartedAt(startedAt)
                .withFinishedAt(finishedAt.toString())
                .endTerminated()
                .endState()
                .build());
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
        List<Pod> failedPods = pods.stream()
                .filter(p -> "Failed".equals(p.getStatus().getPhase()))
                .toList();
        // Pods an Ignore rule matched are neither failed nor active: their index has a new pod.
        long ignored = failedPods.stream()
                .filter(p -> matchingRule(job, p)
                        .map(r -> IGNORE.equals(r.getAction()))
                        .orElse(false))
                .count();
        Optional<Pod> failJob = failedPods.stream()
                .filter(p -> matchingRule(job, p)
                        .map(r -> FAIL_JOB.equals(r.getAction()))
                        .orElse(false))
                .findFirst();
        long failed = failedPods.size() - ignored;
        var status = job.getStatus();
        var before = new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder(status).build();
        status.setSucceeded((int) succeeded);
        status.setFailed((int) failed);
        status.setActive((int) (pods.size() - succeeded - failedPods.size()));
        if (failJob.isPresent()) {
            // https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-failure-policy:
            // a FailJob rule fails the whole Job at once, whatever the backoff limits still allow.
            status.setActive(0);
            String message = failJobMessage(job, failJob.get());
            status.setConditions(Stream.of("FailureTarget", "Failed")
                    .map(type -> new JobConditionBuilder()
                            .withType(type)
                            .withStatus("True")
                            .withReason("PodFailurePolicy")
                            .withMessage(message)
                            .withLastTransitionTime(now.toString())
                            .build())
                    .toList());
        } else if (failed > 0) {
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

    /**
     * The first rule of the Job's podFailurePolicy that a failed pod matches, as the Job controller
     * evaluates them (https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-failure-policy):
     * in order; {@code onExitCodes} on the terminated state of the named container (any, without a
     * name) with {@code In}/{@code NotIn} its values, exit code 0 never matching; {@code onPodConditions}
     * on a pod condition of that type and status (default True). Empty without a policy or a match:
     * the failure counts against the backoff limits.
     */
    static Optional<PodFailurePolicyRule> matchingRule(Job job, Pod pod) {
        PodFailurePolicy policy = job.getSpec().getPodFailurePolicy();
        if (policy == null || policy.getRules() == null || pod.getStatus() == null) {
            return Optional.empty();
        }
        for (PodFailurePolicyRule rule : policy.getRules()) {
            if (matchesExitCodes(rule.getOnExitCodes(), pod) || matchesConditions(rule.getOnPodConditions(), pod)) {
                return Optional.of(rule);
            }
        }
        return Optional.empty();
    }

    private static boolean matchesExitCodes(PodFailurePolicyOnExitCodesRequirement onExitCodes, Pod pod) {
        if (onExitCodes == null || pod.getStatus().getContainerStatuses() == null) {
            return false;
        }
        for (ContainerStatus c : pod.getStatus().getContainerStatuses()) {
            if (onExitCodes.getContainerName() != null
                    && !onExitCodes.getContainerName().equals(c.getName())) {
                continue;
            }
            if (c.getState() == null || c.getState().getTerminated() == null) {
                continue;
            }
            int code = c.getState().getTerminated().getExitCode();
            boolean listed = onExitCodes.getValues().contains(code);
            if (code != 0 && ("In".equals(onExitCodes.getOperator()) == listed)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesConditions(List<PodFailurePolicyOnPodConditionsPattern> patterns, Pod pod) {
        if (patterns == null || patterns.isEmpty() || pod.getStatus().getConditions() == null) {
            return false;
        }
        return patterns.stream().anyMatch(pattern -> pod.getStatus().getConditions().stream()
                .anyMatch(c -> pattern.getType().equals(c.getType())
                        && (pattern.getStatus() == null ? "True" : pattern.getStatus()).equals(c.getStatus())));
    }

    /** The message the Job controller writes for a FailJob rule (pkg/controller/job/pod_failure_policy.go). */
    private static String failJobMessage(Job job, Pod pod) {
        List<PodFailurePolicyRule> rules = job.getSpec().getPodFailurePolicy().getRules();
        PodFailurePolicyRule rule = matchingRule(job, pod).orElseThrow();
        String where =
                pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        if (rule.getOnExitCodes() != null) {
            var exited = pod.getStatus().getContainerStatuses().stream()
                    .filter(c -> c.getState() != null && c.getState().getTerminated() != null)
                    .filter(c -> c.getState().getTerminated().getExitCode() != 0)
                    .findFirst()
                    .orElseThrow();
            return "Container " + exited.getName() + " for pod " + where + " failed with exit code "
                    + exited.getState().getTerminated().getExitCode() + " matching FailJob rule at index "
                    + rules.indexOf(rule);
        }
        return "Pod " + where + " has condition "
                + rule.getOnPodConditions().get(0).getType() + " matching FailJob rule at index " + rules.indexOf(rule);
    }

    /**
     * A new pod for each index whose pod failed under an Ignore rule and that has no other pod
     * left: the Job controller recreates it without counting a failure. With a podFailurePolicy the
     * replacement waits until the old pod is terminal (podReplacementPolicy Failed,
     * https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-replacement-policy), as here.
     */
    private boolean replaceIgnored(Job job, List<Pod> pods, Instant now) {
        boolean created = false;
        Map<Integer, List<Pod>> byIndex = pods.stream().collect(Collectors.groupingBy(JobController::index));
        for (Map.Entry<Integer, List<Pod>> entry : byIndex.entrySet()) {
            List<Pod> ofIndex = entry.getValue();
            boolean allIgnored = ofIndex.stream()
                    .allMatch(p -> "Failed".equals(p.getStatus().getPhase())
                            && matchingRule(job, p)
                                    .map(r -> IGNORE.equals(r.getAction()))
                                    .orElse(false));
            if (allIgnored) {
                created = PodCreations.create(client, job, newPod(job, entry.getKey(), ofIndex.size(), now), now);
            }
        }
        return created;
    }

    /** The completion index of a pod (0 for a pod of a non-indexed Job). */
    static int index(Pod pod) {
        String index = pod.getMetadata().getLabels().get(COMPLETION_INDEX);
        return index == null ? 0 : Integer.parseInt(index);
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

    /** The {@code attempt}th pod of the index (0 the first; a later one replaces a pod that was lost). */
    private static Pod newPod(Job job, int index, int attempt, Instant now) {
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
        String suffix = attempt == 0 ? suffix(jobName, index) : suffix(jobName + "#" + attempt, index);
        String name = indexed ? jobName + "-" + index + "-" + suffix : jobName + "-" + suffix;
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
