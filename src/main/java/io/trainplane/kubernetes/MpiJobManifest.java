package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.TrainingSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.kubeflow.v2beta1.MPIJob;
import org.kubeflow.v2beta1.MPIJobSpec;
import org.kubeflow.v2beta1.mpijobspec.MpiReplicaSpecs;
import org.kubeflow.v2beta1.mpijobspec.RunPolicy;

/**
 * The training as a Kubeflow MPIJob of the MPI operator ({@code kubeflow.org/v2beta1}, v0.8):
 * one Launcher and {@code workers} Workers. The operator gives every worker pod the hostname
 * {@code <job>-worker-<i>} under a headless Service named after the job, writes the hostfile
 * ({@code <job>-worker-<i>.<job>.<namespace>.svc slots=<slotsPerWorker>}) into the ConfigMap
 * {@code <job>-config}, which the launcher mounts (OMPI_MCA_orte_default_hostfile), and the SSH keys
 * into the Secret {@code <job>-ssh}, which every pod mounts at {@code sshAuthMountPath}
 * (https://github.com/kubeflow/mpi-operator/blob/v0.8.2/README.md, examples/v2beta1).
 *
 * <p>The workers run only the SSH server ({@code /usr/sbin/sshd -De}, the operator's own default
 * for a worker without a command); the launcher runs {@code mpirun -np <workers × procsPerWorker>
 * --map-by slot}, which starts one process per slot over SSH, as the operator's TensorFlow and
 * Horovod examples do. Each process is the same training command as the other launchers' under
 * {@link #RANKS}, a shell that gives PyTorch's {@code env://} initialisation the variables torchrun
 * would set, from OpenMPI's ({@code OMPI_COMM_WORLD_RANK} → {@code RANK} and so on); {@code
 * MASTER_ADDR} is the first worker, which holds rank 0 under {@code --map-by slot}. Processes
 * started by sshd do not see the worker container's environment: {@code mpirun -x} exports the
 * launcher's.
 */
public final class MpiJobManifest {
    public static final String API_VERSION = "kubeflow.org/v2beta1";
    public static final String KIND = "MPIJob";
    public static final String LAUNCHER_CONTAINER = "launcher";
    public static final String WORKER_CONTAINER = "worker";
    /** Where rank 0 listens for PyTorch's TCP store (torchrun's default port). */
    public static final int MASTER_PORT = 29500;

    private static final String SHELL = "/bin/sh";

    /**
     * Each MPI process's command: {@code sh -c RANKS <command...>} maps OpenMPI's variables to
     * PyTorch's (https://docs.open-mpi.org/en/v5.0.x/tuning-apps/environment-var.html,
     * https://docs.pytorch.org/docs/stable/distributed.html#environment-variable-initialization)
     * and execs the command, given after the script ({@code "$0" "$@"}).
     */
    public static final String RANKS = "export RANK=\"$OMPI_COMM_WORLD_RANK\" WORLD_SIZE=\"$OMPI_COMM_WORLD_SIZE\""
            + " LOCAL_RANK=\"$OMPI_COMM_WORLD_LOCAL_RANK\" LOCAL_WORLD_SIZE=\"$OMPI_COMM_WORLD_LOCAL_SIZE\";"
            + " exec \"$0\" \"$@\"";

    /** What the launcher asks for: mpirun and ssh only (on a created cluster, beside the data pod on the system node). */
    static final String LAUNCHER_CPU = "250m";

    static final String LAUNCHER_MEMORY = "512Mi";

    private final WorkloadManifests manifests;
    private final RunSpec spec;

    MpiJobManifest(WorkloadManifests manifests, RunSpec spec) {
        this.manifests = manifests;
        this.spec = spec;
    }

    MPIJob build() {
        TrainingSpec t = spec.training();
        Map<String, MpiReplicaSpecs> replicas = new LinkedHashMap<>();
        replicas.put("Launcher", replica(1, "Never", launcher()));
        replicas.put("Worker", replica(t.workers(), "OnFailure", worker()));
        RunPolicy runPolicy = new RunPolicy();
        // Running workers (sshd) go once the launcher has ended; a failed pod stays to be diagnosed.
        runPolicy.setCleanPodPolicy("Running");
        // The launcher Job's: a launcher that failed (mpirun lost a worker) starts again that many
        // times, and train.py resumes from the newest checkpoint on the shared volume.
        runPolicy.setBackoffLimit(t.maxRestarts());
        runPolicy.setActiveDeadlineSeconds(t.timeoutMinutes() * 60L);
        runPolicy.setSuspend(null);
        MPIJobSpec jobSpec = new MPIJobSpec();
        jobSpec.setSlotsPerWorker(t.procsPerWorker());
        jobSpec.setMpiImplementation(MPIJobSpec.MpiImplementation.OPENMPI);
        // mpirun must not ssh into workers whose sshd is not up yet.
        jobSpec.setLauncherCreationPolicy("WaitForWorkersReady");
        // The CRD's defaults the run does not set are left for the API server to fill in.
        jobSpec.setRunLauncherAsWorker(null);
        jobSpec.setSshAuthMountPath(null);
        jobSpec.setRunPolicy(runPolicy);
        jobSpec.setMpiReplicaSpecs(replicas);
        MPIJob job = new MPIJob();
        job.setMetadata(new ObjectMetaBuilder()
                .withName(spec.names().trainingJob())
                .withNamespace(spec.names().namespace())
                .withLabels(manifests.labels("training"))
                .build());
        job.setSpec(jobSpec);
        return job;
    }

    /** The first worker's DNS name under the job's headless Service, as the operator's hostfile names it. */
    String firstWorker() {
        String job = spec.names().trainingJob();
        return job + "-worker-0." + job + "." + spec.names().namespace() + ".svc";
    }

    /**
     * mpirun with the flags of the operator's examples ({@code --allow-run-as-root}: the image's
     * user is root; {@code -bind-to none -map-by slot}; the ob1 PML without openib, as NCCL does the
     * GPU traffic), every variable of the launcher exported to the processes, and in your shipped
     * code's directory.
     */
    List<String> mpirun(List<EnvVar> env) {
        TrainingSpec t = spec.training();
        List<String> command = new ArrayList<>(List.of(
                "mpirun",
                "--allow-run-as-root",
                "-np",
                Integer.toString(t.workers() * t.procsPerWorker()),
                "-bind-to",
                "none",
                "-map-by",
                "slot",
                "-mca",
                "pml",
                "ob1",
                "-mca",
                "btl",
                "^openib",
                "-x",
                "PATH",
                "-x",
                "LD_LIBRARY_PATH"));
        for (EnvVar var : env) {
            command.addAll(List.of("-x", var.getName()));
        }
        if (spec.workload().code().shipped()) {
            command.addAll(List.of("-wdir", WorkloadManifests.WORKLOAD_DIR));
        }
        command.addAll(List.of(SHELL, "-c", RANKS));
        // The built-in train.py under python (torchrun ran it so); your command as given, as under torchrun
        // --no-python.
        if (!spec.workload().code().yours()) {
            command.add("python");
        }
        command.addAll(manifests.trainCommand(List.of()).stream()
                .filter(a -> !a.equals("--no-python"))
                .toList());
        return command;
    }

    /** The command each MPI process runs, when {@code command} is a launcher's mpirun; empty otherwise. */
    public static java.util.Optional<List<String>> processCommand(List<String> command) {
        if (command == null || command.isEmpty() || !command.getFirst().equals("mpirun")) {
            return java.util.Optional.empty();
        }
        for (int i = 0; i + 2 < command.size(); i++) {
            if (command.get(i).equals(SHELL)
                    && command.get(i + 1).equals("-c")
                    && command.get(i + 2).equals(RANKS)) {
                return java.util.Optional.of(List.copyOf(command.subList(i + 3, command.size())));
            }
        }
        return java.util.Optional.empty();
    }

    /** The number of processes of a launcher's mpirun ({@code -np}), 1 when it does not say. */
    public static int processes(List<String> command) {
        int at = command.indexOf("-np");
        return at < 0 || at + 1 >= command.size() ? 1 : Integer.parseInt(command.get(at + 1));
    }

    private PodSpec launcher() {
        List<EnvVar> env = new ArrayList<>(manifests.trainingEnv(null));
        env.add(WorkloadManifests.env("MASTER_ADDR", firstWorker()));
        env.add(WorkloadManifests.env("MASTER_PORT", Integer.toString(MASTER_PORT)));
        Container launcher = manifests.container(
                LAUNCHER_CONTAINER,
                TermExit.wrap(mpirun(env)),
                new ResourceRequirementsBuilder()
                        .withRequests(
                                Map.of("cpu", new Quantity(LAUNCHER_CPU), "memory", new Quantity(LAUNCHER_MEMORY)))
                        .withLimits(Map.of("memory", new Quantity(LAUNCHER_MEMORY)))
                        .build(),
                env);
        // The launcher needs no accelerator: on a created cluster it runs on the system node group.
        PodSpec pod = manifests.podSpec(
                launcher,
                null,
                spec.cluster().created() ? WorkloadManifests.Placement.SYSTEM : WorkloadManifests.Placement.WORKERS);
        pod.setServiceAccountName(io.trainplane.aws.eks.PodIdentity.RUN_SERVICE_ACCOUNT);
        // It lives as long as the training and sees the run's volume: it syncs the checkpoints.
        manifests.withCheckpointSync(pod, false);
        return pod;
    }

    private PodSpec worker() {
        // The training's resources (GPUs, EFA), volumes, identity and grace period; sshd starts the processes.
        Container worker = manifests.container(
                WORKER_CONTAINER,
                List.of("/usr/sbin/sshd", "-De"),
                manifests.trainingResources(),
                manifests.trainingEnv(null));
        return manifests.trainingPodSpec(worker, null);
    }

    private MpiReplicaSpecs replica(int count, String restartPolicy, PodSpec pod) {
        // The replica's restartPolicy is the one the operator sets on the pods.
        pod.setRestartPolicy(null);
        var template = new PodTemplateSpecBuilder()
                .withNewMetadata()
                .withLabels(manifests.labels("training"))
                .endMetadata()
                .withSpec(PodSecurity.confined(pod, true))
                .build();
        MpiReplicaSpecs replica = new MpiReplicaSpecs();
        replica.setReplicas(count);
        replica.setRestartPolicy(restartPolicy);
        replica.setTemplate(template);
        return replica;
    }
}
