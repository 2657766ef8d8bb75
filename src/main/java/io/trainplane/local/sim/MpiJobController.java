package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainplane.kubernetes.MpiJobs;
import io.trainplane.kubernetes.PyTorchJobs;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The part of the Kubeflow MPI operator v0.8.2 local mode needs, as its controller
 * (pkg/controller/mpi_job_controller.go, syncHandler) does it for an MPIJob: the headless Service
 * {@code <job>} in front of the workers, the ConfigMap {@code <job>-config} with the hostfile
 * ({@code <job>-worker-<i>.<job>.<namespace>.svc slots=<slotsPerWorker>}), the Secret {@code
 * <job>-ssh} (kubernetes.io/ssh-auth) that every pod mounts at {@code sshAuthMountPath}, one pod
 * {@code <job>-worker-<i>} per Worker replica, and (at once, or under {@code WaitForWorkersReady}
 * once every worker runs) the launcher Job {@code <job>-launcher}, whose pod the {@link
 * JobController} runs as any Job's. The MPIJob's status follows through the status subresource:
 * Created; Running while the launcher's pod and every worker run; Succeeded or Failed with the
 * launcher Job; replicaStatuses of Launcher and Worker. Once it has ended the running workers go
 * ({@code cleanPodPolicy} Running or All). What a deleted MPIJob owned is garbage-collected.
 *
 * <p>The workers only serve: their pods are started as any pod (scheduling, volumes, image pulls,
 * the faults that keep pods from running) and run until they are deleted; the training is the
 * launcher's ({@link SimulatedWorkload}, or the process runtime's torchrun standing in for mpirun).
 */
public final class MpiJobController {
    /** The operator's image by its repository's last segment (mpioperator/mpi-operator). */
    static final String OPERATOR_IMAGE = "/mpi-operator";

    static final String LAUNCHER = "launcher";
    static final String WORKER = "worker";

    private final KubernetesClient client;
    private final ClusterReads reads;
    private final JobController pods;

    MpiJobController(ClusterReads reads, JobController pods) {
        this.reads = reads;
        this.client = reads.client();
        this.pods = pods;
    }

    /** Acts only while the operator's pod runs and the API server serves MPIJobs of v2beta1. */
    public void reconcile(Instant now) {
        boolean running = reads.running(OPERATOR_IMAGE);
        if (!running || !reads.serves(MpiJobs.CONTEXT.getGroup(), MpiJobs.CONTEXT.getPlural())) {
            return;
        }
        List<GenericKubernetesResource> jobs;
        try {
            jobs = client.genericKubernetesResources(MpiJobs.CONTEXT)
                    .inAnyNamespace()
                    .list()
                    .getItems();
        } catch (KubernetesClientException e) {
            // Another operator's CRD of that name (the training operator's v1): no v2beta1 to watch.
            return;
        }
        for (GenericKubernetesResource job : jobs) {
            reconcile(job, now);
        }
        collectGarbage(jobs);
    }

    private void reconcile(GenericKubernetesResource job, Instant now) {
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        if (OperatorConditions.finished(job)) {
            if (Set.of("Running", "All").contains(String.valueOf(runPolicy(job).get("cleanPodPolicy")))) {
                workers(ns, name).stream()
                        .filter(p -> "Running".equals(p.getStatus().getPhase())
                                || "Pending".equals(p.getStatus().getPhase()))
                        .forEach(p -> client.pods().inNamespace(ns).resource(p).delete());
            }
            return;
        }
        Map<String, Object> status = new LinkedHashMap<>(status(job));
        if (!(status.get("conditions") instanceof List<?> c) || c.isEmpty()) {
            status.put(
                    "conditions",
                    new ArrayList<>(List.of(condition(
                            "Created", "True", "MPIJobCreated", "MPIJob " + ns + "/" + name + " is created.", now))));
            status.put("startTime", now.toString());
        }
        Job launcher = client.batch()
                .v1()
                .jobs()
                .inNamespace(ns)
                .withName(name + "-launcher")
                .get();
        if (PyTorchJobController.suspended(job)) {
            suspend(job, status, launcher, now);
            return;
        }
        boolean launcherDone = launcher != null && finished(launcher) != null;
        List<Pod> workers = workers(ns, name);
        if (!launcherDone) {
            createOnce(service(job));
            createOnce(hostfile(job));
            createOnce(sshAuth(job));
            int replicas = replicas(job, "Worker");
            Set<String> present =
                    workers.stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
            for (int i = 0; i < replicas; i++) {
                if (!present.contains(name + "-worker-" + i)) {
                    PodCreations.create(client, job, newWorker(job, i, now), now);
                }
            }
            Job workerView = asJob(job, "Worker");
            for (Pod worker : workers(ns, name)) {
                pods.startServing(workerView, worker, now);
            }
            workers = workers(ns, name);
            long runningWorkers = workers.stream()
                    .filter(p -> "Running".equals(p.getStatus().getPhase()))
                    .count();
            if (launcher == null
                    && (!"WaitForWorkersReady".equals(spec(job).get("launcherCreationPolicy"))
                            || runningWorkers == replicas)) {
                launcher = newLauncher(job);
                client.batch().v1().jobs().inNamespace(ns).resource(launcher).create();
            }
        }
        updateStatus(job, status, launcher, workers, now);
    }

    /**
     * runPolicy.suspend (its CRD, v0.8.2: "delete all active Pods ... Also, it will suspend the
     * Launcher Job"): the launcher Job suspended (the Job controller stops its pod), the workers
     * deleted, each terminated gracefully, and the MPIJob Suspended.
     */
    @SuppressWarnings("unchecked")
    private void suspend(GenericKubernetesResource job, Map<String, Object> status, Job launcher, Instant now) {
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        if (launcher != null && !Boolean.TRUE.equals(launcher.getSpec().getSuspend())) {
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace(ns)
                    .withName(launcher.getMetadata().getName())
                    .patch(
                            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                    io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                            "{\"spec\":{\"suspend\":true}}");
        }
        pods.stop(asJob(job, "Worker"), workers(ns, name), now);
        List<Map<String, Object>> conditions = new ArrayList<>();
        for (Object c : (List<Object>) status.get("conditions")) {
            conditions.add(new LinkedHashMap<>((Map<String, Object>) c));
        }
        setCondition(
                conditions,
                condition("Suspended", "True", "MPIJobSuspended", "MPIJob " + ns + "/" + name + " is suspended.", now));
        status.put("conditions", conditions);
        if (status.equals(status(job))) {
            return;
        }
        job.getAdditionalProperties().put("status", status);
        client.genericKubernetesResources(MpiJobs.CONTEXT)
                .inNamespace(ns)
                .resource(job)
                .updateStatus();
    }

    /** updateMPIJobStatus: the launcher's outcome, the replicas' counts, Running once everything runs. */
    @SuppressWarnings("unchecked")
    private void updateStatus(
            GenericKubernetesResource job, Map<String, Object> status, Job launcher, List<Pod> workers, Instant now) {
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        List<Map<String, Object>> conditions = new ArrayList<>();
        for (Object c : (List<Object>) status.get("conditions")) {
            conditions.add(new LinkedHashMap<>((Map<String, Object>) c));
        }
        Map<String, Object> launcherStatus = new LinkedHashMap<>();
        Map<String, Object> workerStatus = new LinkedHashMap<>();
        long running = workers.stream()
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .count();
        long failedWorkers = workers.stream()
                .filter(p -> "Failed".equals(p.getStatus().getPhase()))
                .count();
        if (running > 0) {
            workerStatus.put("active", (int) running);
        }
        if (failedWorkers > 0) {
            workerStatus.put("failed", (int) failedWorkers);
        }
        if (launcher != null) {
            List<Pod> launcherPods = reads.podsLabeled(
                    JobController.JOB_NAME, launcher.getMetadata().getName());
            long launcherRunning = launcherPods.stream()
                    .filter(p -> "Running".equals(p.getStatus().getPhase()))
                    .count();
            var finished = finished(launcher);
            if (launcher.getStatus() != null
                    && launcher.getStatus().getFailed() != null
                    && launcher.getStatus().getFailed() > 0) {
                launcherStatus.put("failed", launcher.getStatus().getFailed());
            }
            if (finished != null && "Complete".equals(finished.getType())) {
                launcherStatus.put("succeeded", 1);
                status.put("completionTime", launcher.getStatus().getCompletionTime());
                setCondition(
                        conditions,
                        condition(
                                "Succeeded",
                                "True",
                                "MPIJobSucceeded",
                                "MPIJob " + ns + "/" + name + " successfully completed.",
                                now));
            } else if (finished != null) {
                status.put("completionTime", now.toString());
                setCondition(
                        conditions,
                        condition(
                                "Failed",
                                "True",
                                finished.getReason() == null ? "MPIJobFailed" : finished.getReason(),
                                "MPIJob " + ns + "/" + name + " has failed because the launcher Job failed: "
                                        + finished.getMessage(),
                                now));
            } else {
                if (launcherRunning > 0) {
                    launcherStatus.put("active", (int) launcherRunning);
                }
                if (launcherRunning >= 1 && running == workers.size()) {
                    setCondition(
                            conditions,
                            condition(
                                    "Running",
                                    "True",
                                    "MPIJobRunning",
                                    "MPIJob " + ns + "/" + name + " is running.",
                                    now));
                }
            }
        }
        Map<String, Object> replicaStatuses = new LinkedHashMap<>();
        replicaStatuses.put("Launcher", launcherStatus);
        replicaStatuses.put("Worker", workerStatus);
        status.put("conditions", conditions);
        status.put("replicaStatuses", replicaStatuses);
        if (status.equals(status(job))) {
            return;
        }
        job.getAdditionalProperties().put("status", status);
        client.genericKubernetesResources(MpiJobs.CONTEXT)
                .inNamespace(ns)
                .resource(job)
                .updateStatus();
    }

    /** updateMPIJobConditions: a condition of a type already there replaces it (kept if unchanged); Running ends False with the job. */
    private static void setCondition(List<Map<String, Object>> conditions, Map<String, Object> latest) {
        for (Map<String, Object> c : conditions) {
            if (c.get("type").equals(latest.get("type"))) {
                if (c.get("status").equals(latest.get("status"))) {
                    return;
                }
                conditions.remove(c);
                break;
            }
        }
        if (Set.of("Succeeded", "Failed").contains(latest.get("type"))) {
            conditions.stream().filter(c -> "Running".equals(c.get("type"))).forEach(c -> c.put("status", "False"));
        }
        conditions.add(latest);
    }

    private static Map<String, Object> condition(
            String type, String status, String reason, String message, Instant now) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", status);
        c.put("reason", reason);
        c.put("message", message);
        c.put("lastTransitionTime", now.toString());
        c.put("lastUpdateTime", now.toString());
        return c;
    }

    /** The launcher Job's Complete or Failed condition, or null while it runs. */
    private static io.fabric8.kubernetes.api.model.batch.v1.JobCondition finished(Job launcher) {
        if (launcher.getStatus() == null || launcher.getStatus().getConditions() == null) {
            return null;
        }
        return launcher.getStatus().getConditions().stream()
                .filter(c -> "True".equals(c.getStatus())
                        && Set.of("Complete", "Failed").contains(c.getType()))
                .findFirst()
                .orElse(null);
    }

    private void createOnce(io.fabric8.kubernetes.api.model.HasMetadata object) {
        if (client.resource(object).get() == null) {
            client.resource(object).create();
        }
    }

    private static OwnerReference owner(GenericKubernetesResource job) {
        return new OwnerReferenceBuilder()
                .withApiVersion(job.getApiVersion())
                .withKind(job.getKind())
                .withName(job.getMetadata().getName())
                .withUid(job.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    /** newJobService: headless, selecting the workers, so each has a DNS name under it. */
    private static io.fabric8.kubernetes.api.model.Service service(GenericKubernetesResource job) {
        String name = job.getMetadata().getName();
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(Map.of("app", name))
                .withOwnerReferences(owner(job))
                .endMetadata()
                .withNewSpec()
                .withClusterIP("None")
                .withSelector(roleLabels(name, WORKER))
                .withPublishNotReadyAddresses(true)
                .endSpec()
                .build();
    }

    /** newConfigMap: the hostfile, one line per worker with its slots (OpenMPI's syntax). */
    private static io.fabric8.kubernetes.api.model.ConfigMap hostfile(GenericKubernetesResource job) {
        String name = job.getMetadata().getName();
        String ns = job.getMetadata().getNamespace();
        int slots = ((Number) spec(job).getOrDefault("slotsPerWorker", 1)).intValue();
        StringBuilder hosts = new StringBuilder();
        for (int i = 0; i < replicas(job, "Worker"); i++) {
            hosts.append(name)
                    .append("-worker-")
                    .append(i)
                    .append('.')
                    .append(name)
                    .append('.')
                    .append(ns)
                    .append(".svc slots=")
                    .append(slots)
                    .append('\n');
        }
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name + "-config")
                .withNamespace(ns)
                .withLabels(Map.of("app", name))
                .withOwnerReferences(owner(job))
                .endMetadata()
                .withData(Map.of("hostfile", hosts.toString()))
                .build();
    }

    /** newSSHAuthSecret: the key pair (here placeholders: nothing in the twin logs in with it). */
    private static io.fabric8.kubernetes.api.model.Secret sshAuth(GenericKubernetesResource job) {
        String name = job.getMetadata().getName();
        return new SecretBuilder()
                .withNewMetadata()
                .withName(name + "-ssh")
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(Map.of("app", name))
                .withOwnerReferences(owner(job))
                .endMetadata()
                .withType("kubernetes.io/ssh-auth")
                .withData(Map.of(
                        "ssh-privatekey",
                                base64("-----BEGIN EC PRIVATE KEY-----\nsimulated\n-----END EC PRIVATE KEY-----\n"),
                        "ssh-publickey", base64("ecdsa-sha2-nistp521 simulated\n")))
                .build();
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The operator's labels of an MPIJob's pods (defaultLabels). */
    private static Map<String, String> roleLabels(String jobName, String role) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(MpiJobs.OPERATOR_NAME_LABEL, "mpi-operator");
        labels.put(MpiJobs.JOB_NAME_LABEL, jobName);
        labels.put(MpiJobs.JOB_ROLE_LABEL, role);
        return labels;
    }

    /** newWorker: the Worker template with the role labels, its hostname under the job's Service, the SSH keys. */
    private static Pod newWorker(GenericKubernetesResource job, int index, Instant now) {
        String name = job.getMetadata().getName();
        PodTemplateSpec template = template(job, "Worker");
        Map<String, String> labels = new HashMap<>(template.getMetadata().getLabels());
        labels.putAll(roleLabels(name, WORKER));
        labels.put(MpiJobs.REPLICA_INDEX_LABEL, Integer.toString(index));
        var spec = template.getSpec();
        spec.setHostname(name + "-worker-" + index);
        spec.setSubdomain(name);
        spec.setRestartPolicy(restartPolicy(job, "Worker"));
        withSshAuth(job, spec);
        return new PodBuilder()
                .withNewMetadata()
                .withName(name + "-worker-" + index)
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(labels)
                .withAnnotations(Map.of("trainplane.local/created", now.toString()))
                .withOwnerReferences(owner(job))
                .endMetadata()
                .withSpec(spec)
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build();
    }

    /** newLauncherJob: the Launcher template with the role labels, the hostfile and the SSH keys; runPolicy's limits. */
    private static Job newLauncher(GenericKubernetesResource job) {
        String name = job.getMetadata().getName();
        PodTemplateSpec template = template(job, "Launcher");
        template.getMetadata().getLabels().putAll(roleLabels(name, LAUNCHER));
        var spec = template.getSpec();
        spec.setHostname(name + "-launcher");
        spec.setSubdomain(name);
        spec.setRestartPolicy(restartPolicy(job, "Launcher"));
        var container = spec.getContainers().get(0);
        container
                .getEnv()
                .add(new io.fabric8.kubernetes.api.model.EnvVar(
                        "OMPI_MCA_orte_default_hostfile", "/etc/mpi/hostfile", null));
        container
                .getEnv()
                .add(new io.fabric8.kubernetes.api.model.EnvVar(
                        "OMPI_MCA_orte_set_default_slots",
                        String.valueOf(spec(job).getOrDefault("slotsPerWorker", 1)),
                        null));
        spec.getVolumes()
                .add(new VolumeBuilder()
                        .withName("mpi-job-config")
                        .withNewConfigMap()
                        .withName(name + "-config")
                        .endConfigMap()
                        .build());
        container
                .getVolumeMounts()
                .add(new VolumeMountBuilder()
                        .withName("mpi-job-config")
                        .withMountPath("/etc/mpi")
                        .build());
        withSshAuth(job, spec);
        Map<String, Object> runPolicy = runPolicy(job);
        return new JobBuilder()
                .withNewMetadata()
                .withName(name + "-launcher")
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(Map.of("app", name))
                .withOwnerReferences(owner(job))
                .endMetadata()
                .withNewSpec()
                .withBackoffLimit(runPolicy.get("backoffLimit") instanceof Number n ? n.intValue() : null)
                .withActiveDeadlineSeconds(
                        runPolicy.get("activeDeadlineSeconds") instanceof Number n ? n.longValue() : null)
                .withPodReplacementPolicy("Failed")
                .withTemplate(template)
                .endSpec()
                .build();
    }

    /** setupSSHOnPod: the Secret's keys at sshAuthMountPath in the first container. */
    private static void withSshAuth(GenericKubernetesResource job, io.fabric8.kubernetes.api.model.PodSpec spec) {
        String name = job.getMetadata().getName();
        spec.getVolumes()
                .add(new VolumeBuilder()
                        .withName("ssh-auth")
                        .withNewSecret()
                        .withSecretName(name + "-ssh")
                        .endSecret()
                        .build());
        spec.getContainers()
                .get(0)
                .getVolumeMounts()
                .add(new VolumeMountBuilder()
                        .withName("ssh-auth")
                        .withMountPath(String.valueOf(spec(job).getOrDefault("sshAuthMountPath", "/root/.ssh")))
                        .build());
    }

    /** Pods, Jobs, the Service, ConfigMap and Secret of MPIJobs that are gone go too (ownerReferences). */
    private void collectGarbage(List<GenericKubernetesResource> jobs) {
        Set<String> alive = jobs.stream().map(j -> j.getMetadata().getUid()).collect(Collectors.toSet());
        List<io.fabric8.kubernetes.api.model.HasMetadata> owned = new ArrayList<>();
        owned.addAll(reads.podsLabeled(MpiJobs.OPERATOR_NAME_LABEL, "mpi-operator"));
        owned.addAll(reads.jobs());
        owned.addAll(client.services().inAnyNamespace().withLabel("app").list().getItems());
        owned.addAll(
                client.configMaps().inAnyNamespace().withLabel("app").list().getItems());
        owned.addAll(client.secrets().inAnyNamespace().withLabel("app").list().getItems());
        for (var object : owned) {
            var owners = object.getMetadata().getOwnerReferences();
            if (owners != null
                    && owners.stream()
                            .anyMatch(o ->
                                    MpiJobs.CONTEXT.getKind().equals(o.getKind()) && !alive.contains(o.getUid()))) {
                client.resource(object).delete();
            }
        }
    }

    private List<Pod> workers(String namespace, String jobName) {
        return reads.podsLabeled(MpiJobs.JOB_NAME_LABEL, jobName).stream()
                .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
                .filter(p -> WORKER.equals(p.getMetadata().getLabels().get(MpiJobs.JOB_ROLE_LABEL)))
                .toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource job) {
        return (Map<String, Object>) job.getAdditionalProperties().get("spec");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> status(GenericKubernetesResource job) {
        Object status = job.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> runPolicy(GenericKubernetesResource job) {
        Object policy = spec(job).get("runPolicy");
        return policy instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> replicaSpec(GenericKubernetesResource job, String type) {
        return (Map<String, Object>) ((Map<String, Object>) spec(job).get("mpiReplicaSpecs")).get(type);
    }

    private static int replicas(GenericKubernetesResource job, String type) {
        return ((Number) replicaSpec(job, type).getOrDefault("replicas", 1)).intValue();
    }

    private static String restartPolicy(GenericKubernetesResource job, String type) {
        return String.valueOf(replicaSpec(job, type).getOrDefault("restartPolicy", "Never"));
    }

    private static PodTemplateSpec template(GenericKubernetesResource job, String type) {
        PodTemplateSpec template =
                Serialization.jsonMapper().convertValue(replicaSpec(job, type).get("template"), PodTemplateSpec.class);
        if (template.getMetadata().getLabels() == null) {
            template.getMetadata().setLabels(new HashMap<>());
        }
        var container = template.getSpec().getContainers().get(0);
        if (container.getEnv() == null) {
            container.setEnv(new ArrayList<>());
        }
        if (container.getVolumeMounts() == null) {
            container.setVolumeMounts(new ArrayList<>());
        }
        if (template.getSpec().getVolumes() == null) {
            template.getSpec().setVolumes(new ArrayList<>());
        }
        return template;
    }

    /** The MPIJob seen as a Job of {@code type}'s template (what a {@link PodBehaviour} reads); the Launcher's for the training's epochs. */
    static Job asJob(GenericKubernetesResource job, String type) {
        return new JobBuilder()
                .withMetadata(job.getMetadata())
                .withNewSpec()
                .withCompletions(replicas(job, type))
                .withTemplate(template(job, type))
                .endSpec()
                .withNewStatus()
                .withStartTime((String) PyTorchJobs.status(job, "startTime"))
                .endStatus()
                .build();
    }
}
