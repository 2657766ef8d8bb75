package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyBuilder;
import io.trainplane.aws.ec2.EfaInterfaces;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.spec.CodeDirectory;
import io.trainplane.spec.DataSpec;
import io.trainplane.spec.Launcher;
import io.trainplane.spec.Names;
import io.trainplane.spec.NodeGroupSpec;
import io.trainplane.spec.OutputSpec;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.TrainLauncher;
import io.trainplane.spec.TrainingSpec;
import io.trainplane.spec.VolumeType;
import io.trainplane.spec.WorkloadCommand;
import io.trainplane.spec.WorkloadSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * The Kubernetes objects of a run, as pure functions of its spec: what {@code plan} prints is
 * exactly what the steps create. The workload contract (mount points, arguments, metrics) is
 * written down in docs/workload-contract.md.
 */
public final class WorkloadManifests {
    public static final String WORKLOAD_DIR = "/workload";
    public static final String SHARED_DIR = "/shared";
    public static final int RENDEZVOUS_PORT = 29400;
    public static final long TRAINING_GRACE_SECONDS = 90;
    public static final String COMPONENT = "app.kubernetes.io/component";

    /**
     * What the data job asks for on a created cluster's system node: room beside CoreDNS, the
     * add-ons' controllers and an operator on one {@value EksRequests#SYSTEM_INSTANCE_TYPE}
     * (about 1.9 CPUs and 7 GiB allocatable); it downloads, verifies and unpacks, so its CPU is
     * not limited and it uses more when the node has it.
     */
    static final String DATA_CPU = "500m";

    static final String DATA_MEMORY = "2Gi";

    /** Where the built-in scripts are when /workload holds your shipped code (the data Job's default prepare.py). */
    public static final String BUILTIN_DIR = "/opt/trainplane";

    /** Where your shipped code is, for code that does not want to rely on the working directory. */
    public static final String CODE_DIR_ENV = "TRAINPLANE_CODE_DIR";

    /** The init container that copies the code of the artifacts bucket or an s3:// prefix into /workload. */
    public static final String FETCH_CODE = "fetch-code";

    /** fetch-code's variable with the prefix it copies. */
    public static final String CODE_URI_ENV = "CODE_S3_URI";

    /** fetch-code's variable with the package's SHA-256 (workload.package.sha256) on the bucket route. */
    public static final String CODE_SHA256_ENV = "CODE_SHA256";

    /** fetch-code's exit code when the copied files are not the package the CLI described (the AWS CLI's are 1 and 255). */
    public static final int CODE_MISMATCH = 3;

    private final RunSpec spec;
    private final Names names;
    /** A packed directory's files (ConfigMap route): null when the route has none or they are not at hand (plan without the files). */
    private final SortedMap<String, byte[]> code;

    public WorkloadManifests(RunSpec spec) {
        this(spec, null);
    }

    /** The objects of {@code spec}, with a packed directory's files when the ConfigMap route carries them. */
    public WorkloadManifests(RunSpec spec, SortedMap<String, byte[]> code) {
        this.spec = spec;
        this.names = spec.names();
        this.code = code;
    }

    /** How the pods get the code ({@link CodeRoute}). */
    public CodeRoute codeRoute() {
        return CodeRoute.of(spec.workload());
    }

    /** Everything the run creates, in creation order. */
    public List<HasMetadata> all() {
        if (spec.training().launcher() != Launcher.INDEXED_JOB) {
            return List.of(
                    namespace(),
                    serviceAccount(),
                    workloadScripts(),
                    dataJob(),
                    spec.training().launcher() == Launcher.MPIJOB ? mpiJob() : pyTorchJob(),
                    evaluationJob(),
                    outputsJob());
        }
        return List.of(
                namespace(),
                serviceAccount(),
                workloadScripts(),
                dataJob(),
                trainingService(),
                trainingJob(),
                evaluationJob(),
                outputsJob());
    }

    /** The training as a Kubeflow PyTorchJob (launcher pytorchjob). */
    public org.kubeflow.v1.PyTorchJob pyTorchJob() {
        return new PyTorchJobManifest(this, spec).build();
    }

    /** The training as a Kubeflow MPIJob (launcher mpijob). */
    public org.kubeflow.v2beta1.MPIJob mpiJob() {
        return new MpiJobManifest(this, spec).build();
    }

    /** The run's labels, and the Pod Security level the namespace enforces ({@link PodSecurity}). */
    private Map<String, String> namespaceLabels() {
        Map<String, String> labels = new java.util.LinkedHashMap<>(names.labels());
        labels.put(PodSecurity.ENFORCE_LABEL, PodSecurity.LEVEL);
        return labels;
    }

    public Namespace namespace() {
        return new NamespaceBuilder()
                .withNewMetadata()
                .withName(names.namespace())
                .withLabels(namespaceLabels())
                .endMetadata()
                .build();
    }

    /**
     * The training and evaluation pods' identity: EKS Pod Identity associates it with the stack's
     * run outputs role (https://docs.aws.amazon.com/eks/latest/userguide/pod-id-association.html).
     * The data job does without, unless it fetches training.resumeFrom.
     */
    public io.fabric8.kubernetes.api.model.ServiceAccount serviceAccount() {
        return new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                .withNewMetadata()
                .withName(io.trainplane.aws.eks.PodIdentity.RUN_SERVICE_ACCOUNT)
                .withNamespace(names.namespace())
                .withLabels(labels("identity"))
                .endMetadata()
                .build();
    }

    /**
     * The run's ConfigMap: the built-in scripts, and with the ConfigMap route your directory's files
     * too (text in data, other files base64 in binaryData), each under the key {@link
     * CodeRoute#configMapKeys} gives it; the pods' volumes map the keys back to the paths.
     */
    public ConfigMap workloadScripts() {
        Map<String, String> data = new LinkedHashMap<>();
        Map<String, String> binary = new LinkedHashMap<>();
        if (codeRoute() == CodeRoute.CONFIGMAP) {
            if (code == null) {
                throw new IllegalStateException("the ConfigMap route of workload.code needs the packed files of "
                        + spec.workload().code() + " (sha256 "
                        + spec.workload().codePackage().sha256() + ")");
            }
            Map<String, String> keys =
                    CodeRoute.configMapKeys(spec.workload().codePackage().files());
            for (Map.Entry<String, byte[]> file : code.entrySet()) {
                String key = keys.get(file.getKey());
                if (key == null) {
                    throw new IllegalStateException(
                            "the packed code has " + file.getKey() + ", which its package does not list");
                }
                if (CodeDirectory.Packed.text(file.getValue())) {
                    data.put(key, new String(file.getValue(), StandardCharsets.UTF_8));
                } else {
                    binary.put(key, Base64.getEncoder().encodeToString(file.getValue()));
                }
            }
        }
        WorkloadScripts.all().forEach((name, script) -> data.put(builtinKey(name), script));
        ConfigMapBuilder map = new ConfigMapBuilder()
                .withNewMetadata()
                .withName(names.configMap())
                .withNamespace(names.namespace())
                .withLabels(labels("workload"))
                .endMetadata()
                .withData(data);
        if (!binary.isEmpty()) {
            map.withBinaryData(binary);
        }
        return map.build();
    }

    /** A built-in script's key: its name, or with your code in the same ConfigMap, its name under {@code trainplane.}. */
    private String builtinKey(String name) {
        return codeRoute() == CodeRoute.CONFIGMAP ? CodeRoute.BUILTIN_KEY_PREFIX + name : name;
    }

    /** Where the built-in scripts are mounted: /workload, or {@value #BUILTIN_DIR} when your code is there. */
    public String builtinDir() {
        return spec.workload().code().shipped() ? BUILTIN_DIR : WORKLOAD_DIR;
    }

    /** Headless: gives pod 0 of the Indexed Job the stable DNS name torchrun's rendezvous needs. */
    public Service trainingService() {
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(names.trainingService())
                .withNamespace(names.namespace())
                .withLabels(labels("training"))
                .endMetadata()
                .withNewSpec()
                .withClusterIP("None")
                .withSelector(Map.of("batch.kubernetes.io/job-name", names.trainingJob()))
                .addNewPort()
                .withName("rendezvous")
                .withPort(RENDEZVOUS_PORT)
                .endPort()
                .withPublishNotReadyAddresses(true)
                .endSpec()
                .build();
    }

    public Job trainingJob() {
        TrainingSpec t = spec.training();
        String rendezvous = names.trainingJob() + "-0." + names.trainingService() + ":" + RENDEZVOUS_PORT;
        List<String> torchrun = List.of(
                "torchrun",
                "--nnodes=" + t.workers(),
                "--nproc-per-node=" + t.procsPerWorker(),
                "--max-restarts=" + t.maxRestarts(),
                "--rdzv-backend=c10d",
                "--rdzv-endpoint=" + rendezvous,
                "--rdzv-id=" + spec.runId());
        Container trainer = container("trainer", trainCommand(torchrun), trainingResources(), trainingEnv(rendezvous));
        return new JobBuilder()
                .withNewMetadata()
                .withName(names.trainingJob())
                .withNamespace(names.namespace())
                .withLabels(labels("training"))
                .endMetadata()
                .withNewSpec()
                .withCompletionMode("Indexed")
                .withCompletions(t.workers())
                .withParallelism(t.workers())
                // One broken pod fails the job instead of leaving the others waiting at the rendezvous.
                .withBackoffLimitPerIndex(0)
                .withMaxFailedIndexes(0)
                .withPodFailurePolicy(trainingPodFailurePolicy())
                .withActiveDeadlineSeconds(t.timeoutMinutes() * 60L)
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels("training"))
                .endMetadata()
                .withSpec(PodSecurity.confined(withSecrets(
                        withCheckpointSync(trainingPodSpec(trainer, names.trainingService()), true),
                        spec.workload().train())))
                .endTemplate()
                .endSpec()
                .build();
    }

    /**
     * Tells a lost node from a failed training
     * (https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-failure-policy, rules
     * matched in order). A pod with the {@code DisruptionTarget} condition lost its node (spot
     * reclaim, node gone, eviction; https://kubernetes.io/docs/concepts/workloads/pods/disruptions/#pod-disruption-conditions):
     * {@code Ignore} recreates it for the same index without counting a failure. It comes first
     * because such a pod's trainer often also exits non-zero (SIGTERM, 143). Any other non-zero
     * exit of the trainer is the user's code failing: {@code FailJob} at once, after one attempt.
     * The surviving workers need no failure: torchrun's c10d rendezvous sees a member leave,
     * stops its local workers and waits (one of --max-restarts) until the replacement pod joins,
     * and every worker resumes from the newest checkpoint on the shared volume. How many
     * interruptions a run may take is counted by CheckTraining (training.maxInterruptions). torchrun
     * restarts a crash the same way, before the pod ever exits: hence maxRestarts' default, 0 where
     * one worker has no survivor to restart ({@link io.trainplane.spec.RunSpecs}).
     */
    public static PodFailurePolicy trainingPodFailurePolicy() {
        return new PodFailurePolicyBuilder()
                .addNewRule()
                .withAction("Ignore")
                .addNewOnPodCondition()
                .withType(JobPods.DISRUPTION_TARGET)
                .withStatus("True")
                .endOnPodCondition()
                .endRule()
                .addNewRule()
                .withAction("FailJob")
                .withNewOnExitCodes()
                .withContainerName("trainer")
                .withOperator("NotIn")
                .withValues(0)
                .endOnExitCodes()
                .endRule()
                .build();
    }

    /**
     * Prepares the data set on the shared volume ({@code prepare.py}): downloads and verifies it,
     * or generates it. No retries: a checksum mismatch (exit 3) will not go away by itself.
     */
    public Job dataJob() {
        DataSpec data = spec.data();
        List<String> command = new ArrayList<>(List.of(
                "python",
                builtinDir() + "/prepare.py",
                "--data-dir",
                SHARED_DIR + "/data",
                "--source",
                data.source().json()));
        switch (data.source()) {
            case URL -> command.addAll(List.of("--url", data.url(), "--sha256", data.sha256()));
            case S3 -> {
                command.addAll(List.of("--url", data.s3Uri()));
                if (data.sha256() != null) {
                    command.addAll(List.of("--sha256", data.sha256()));
                }
            }
            case SYNTHETIC -> {
                if (data.syntheticSamples() > 0) {
                    command.addAll(List.of("--samples", Integer.toString(data.syntheticSamples())));
                }
            }
        }
        WorkloadCommand prepare = spec.workload().prepare();
        Container preparer = container(
                "data",
                prepare == null ? command : prepare.args(),
                spec.cluster().created() ? systemCpuAndMemory() : cpuAndMemory(),
                roleEnv("data", prepare));
        PodSpec pod = podSpec(preparer, null, Placement.SYSTEM);
        if (spec.training().resumeFrom() != null) {
            // The checkpoint is on the volume before the training looks for it; fetching it needs
            // the run's Pod Identity (RunOutputsRole reads the artifacts bucket's runs/).
            addInitContainer(pod, fetchCheckpoint());
            pod.setServiceAccountName(io.trainplane.aws.eks.PodIdentity.RUN_SERVICE_ACCOUNT);
        }
        withSecrets(pod, prepare);
        return new JobBuilder()
                .withNewMetadata()
                .withName(names.dataJob())
                .withNamespace(names.namespace())
                .withLabels(labels("data"))
                .endMetadata()
                .withNewSpec()
                .withCompletions(1)
                .withParallelism(1)
                .withBackoffLimit(0)
                .withActiveDeadlineSeconds(3600L)
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels("data"))
                .endMetadata()
                .withSpec(PodSecurity.confined(pod))
                .endTemplate()
                .endSpec()
                .build();
    }

    /** The data pod's init container that fetches training.resumeFrom, and its environment variable with the URI. */
    public static final String FETCH_CHECKPOINT = "fetch-checkpoint";

    public static final String RESUME_FROM_ENV = "RESUME_FROM_S3_URI";

    /** fetch-checkpoint's exit code when the checkpoint does not match its .sha256 (the AWS CLI's are 1 and 255). */
    public static final int CHECKPOINT_MISMATCH = 3;

    /**
     * Copies training.resumeFrom and its .sha256 into the model directory, where train.py resumes
     * from the newest verified checkpoint: to temporary names, the digest checked
     * ({@code sha256sum -c} against the .sha256's hex, whatever file name it records), then renamed,
     * the digest last as train.py writes it. A missing object or a refused read fails it with the AWS
     * CLI's exit code and words (its log is the termination message), a mismatch with {@value
     * #CHECKPOINT_MISMATCH}.
     */
    Container fetchCheckpoint() {
        String script = String.join(
                "\n",
                "set -eu",
                "dir=" + SHARED_DIR + "/model",
                // Before StartRun resolves a run ID (plan), the variable holds the ID; a run has the URI.
                "name=$(basename \"$" + RESUME_FROM_ENV + "\")",
                "mkdir -p \"$dir\" && cd \"$dir\"",
                "aws s3 cp \"$" + RESUME_FROM_ENV + "\" \"$name.part\" --only-show-errors",
                "aws s3 cp \"$" + RESUME_FROM_ENV + ".sha256\" \"$name.sha256.part\" --only-show-errors",
                "expected=$(cut -d' ' -f1 \"$name.sha256.part\")",
                "if ! printf '%s  %s\\n' \"$expected\" \"$name.part\" | sha256sum -c --status; then",
                "  actual=$(sha256sum \"$name.part\" | cut -d' ' -f1)",
                "  rm -f \"$name.part\" \"$name.sha256.part\"",
                "  printf 'CHECKPOINT CHECKSUM MISMATCH %s has SHA-256 %s, its .sha256 says %s\\n'" + " \"$"
                        + RESUME_FROM_ENV + "\" \"$actual\" \"$expected\" > /dev/termination-log",
                "  exit " + CHECKPOINT_MISMATCH,
                "fi",
                "mv \"$name.part\" \"$name\" && mv \"$name.sha256.part\" \"$name.sha256\"");
        return new ContainerBuilder()
                .withName(FETCH_CHECKPOINT)
                .withImage(AWS_CLI_IMAGE)
                .withCommand("/bin/sh", "-c", script)
                .withEnv(env(RESUME_FROM_ENV, spec.training().resumeFrom()), env("TRAINPLANE_RUN_ID", spec.runId()))
                .withResources(awsCliResources())
                .withTerminationMessagePath("/dev/termination-log")
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withVolumeMounts(mounts())
                .build();
    }

    /** What a pod of the AWS CLI copying files asks for. */
    private static ResourceRequirements awsCliResources() {
        return new ResourceRequirementsBuilder()
                .withRequests(Map.of("cpu", new Quantity("250m"), "memory", new Quantity("512Mi")))
                .withLimits(Map.of("memory", new Quantity("512Mi")))
                .build();
    }

    public Job evaluationJob() {
        WorkloadCommand evaluate = spec.workload().evaluate();
        List<String> command;
        if (evaluate != null) {
            command = evaluate.args();
        } else if (spec.workload().code().yours()) {
            // Your image without an evaluate command: the metrics the training wrote are the gate's.
            command = List.of(
                    "/bin/sh", "-c", "cat \"$" + OUTPUT_DIR_ENV + "/" + METRICS_FILE + "\" > /dev/termination-log");
        } else {
            command = List.of(
                    "python",
                    builtinDir() + "/evaluate.py",
                    "--data-dir",
                    SHARED_DIR + "/data",
                    "--model-dir",
                    SHARED_DIR + "/model",
                    "--metrics-file",
                    "/dev/termination-log");
        }
        Container evaluator = container("evaluator", command, resources(), roleEnv("evaluation", evaluate));
        return singlePodJob(
                names.evaluationJob(),
                "evaluation",
                withSecrets(podSpec(evaluator, null, Placement.WORKERS), evaluate));
    }

    /** A Job of one pod that may try twice within an hour (the evaluation, the outputs' copy). */
    private Job singlePodJob(String name, String component, PodSpec pod) {
        return new JobBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(names.namespace())
                .withLabels(labels(component))
                .endMetadata()
                .withNewSpec()
                .withCompletions(1)
                .withParallelism(1)
                .withBackoffLimit(1)
                .withActiveDeadlineSeconds(3600L)
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels(component))
                .endMetadata()
                .withSpec(PodSecurity.confined(pod))
                .endTemplate()
                .endSpec()
                .build();
    }

    /**
     * The official AWS CLI image, pinned: the outputs Job copies with it
     * (https://docs.aws.amazon.com/cli/latest/userguide/getting-started-docker.html).
     */
    public static final String AWS_CLI_IMAGE = "public.ecr.aws/aws-cli/aws-cli:2.22.35";

    /** Where the outputs Job finds the destination, {@code s3://bucket/prefix/}. */
    public static final String OUTPUT_URI_ENV = "OUTPUT_S3_URI";

    /** "true" when the outputs Job may find no model.pt (a training its budget stopped). */
    public static final String MODEL_OPTIONAL_ENV = "MODEL_OPTIONAL";

    /** The files of /shared/model the outputs Job copies when they exist; model.pt must, unless {@link #MODEL_OPTIONAL_ENV}. */
    public static final List<String> OUTPUT_FILES = List.of("model.pt", "train-metrics.json", "eval-metrics.json");

    /** The outputs Job of a training that ran to its end: the model must be there. */
    public Job outputsJob() {
        return outputsJob(false);
    }

    /**
     * Copies the run's outputs to {@code output.s3Uri} with {@code aws s3 cp --checksum-algorithm
     * SHA256} (S3 checks the digest the CLI sends,
     * https://docs.aws.amazon.com/AmazonS3/latest/userguide/checking-object-integrity.html): the
     * model, the metrics, and the newest checkpoint whose .sha256 matches, with it. It runs as
     * trainplane-run (EKS Pod Identity: RunOutputsRole) and writes the model's URI and SHA-256 to
     * its termination message, JSON made of the validated output URI, a hex digest and a file name
     * of safe characters only, so that no file name can rewrite the report. A refused copy fails it,
     * and so does a missing model, unless {@code modelOptional}: a training stopped by its budget
     * leaves its checkpoint, and a model only if it wrote one.
     */
    public Job outputsJob(boolean modelOptional) {
        String script = String.join(
                "\n",
                "set -eu",
                "dir=" + SHARED_DIR + "/model",
                "out=\"$" + OUTPUT_URI_ENV + "\"",
                "put() { aws s3 cp \"$dir/$1\" \"$out$1\" --checksum-algorithm SHA256 --only-show-errors; }",
                "model=''",
                "sha=''",
                "if [ \"${" + MODEL_OPTIONAL_ENV + ":-false}\" != true ] || [ -f \"$dir/model.pt\" ]; then",
                "  put model.pt",
                "  model=\"${out}model.pt\"",
                "  sha=$(sha256sum \"$dir/model.pt\" | cut -d' ' -f1)",
                "fi",
                "for f in " + String.join(" ", OUTPUT_FILES.subList(1, OUTPUT_FILES.size()))
                        + "; do if [ -f \"$dir/$f\" ]; then put \"$f\"; fi; done",
                "checkpoint=''",
                "checkpoint_sha=''",
                // The newest checkpoint whose own bytes have the SHA-256 its .sha256 records (not whatever
                // file the .sha256 names), its name of safe characters only: it goes into the JSON below.
                "for digest in $(ls -1t \"$dir\"/checkpoint-*.pt.sha256 2>/dev/null); do",
                "  name=$(basename \"$digest\" .sha256)",
                "  case \"$name\" in *[!A-Za-z0-9._-]*) continue ;; esac",
                "  [ -f \"$dir/$name\" ] || continue",
                "  actual=$(sha256sum \"$dir/$name\" | cut -d' ' -f1)",
                "  if [ \"$(cut -d' ' -f1 \"$digest\")\" = \"$actual\" ]; then checkpoint=$name; checkpoint_sha=$actual; break; fi",
                "done",
                "if [ -n \"$checkpoint\" ]; then put \"$checkpoint\"; put \"$checkpoint.sha256\"; fi",
                "printf '{\"modelUri\": \"%s\", \"modelSha256\": \"%s\", \"checkpoint\": \"%s\", \"checkpointSha256\": \"%s\"}'"
                        + " \"$model\" \"$sha\" \"$checkpoint\" \"$checkpoint_sha\" > /dev/termination-log");
        Container copier = new ContainerBuilder()
                .withName("outputs")
                .withImage(AWS_CLI_IMAGE)
                .withCommand("/bin/sh", "-c", script)
                .withEnv(
                        env(OUTPUT_URI_ENV, spec.output().s3Uri()),
                        env(MODEL_OPTIONAL_ENV, Boolean.toString(modelOptional)),
                        env("TRAINPLANE_RUN_ID", spec.runId()))
                .withResources(awsCliResources())
                .withTerminationMessagePath("/dev/termination-log")
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withVolumeMounts(mounts())
                .build();
        // On a created cluster the workers' node group is deleted once the evaluation is done
        // (ReleaseWorkers): the copy runs on the system node group, as the run's pod identity.
        // On a warm cluster the workers' nodes are being scaled in by now: the copy runs beside them.
        PodSpec pod = podSpec(
                copier, null, spec.cluster().created() || spec.cluster().warm() ? Placement.SYSTEM : Placement.WORKERS);
        pod.setServiceAccountName(io.trainplane.aws.eks.PodIdentity.RUN_SERVICE_ACCOUNT);
        return singlePodJob(names.outputsJob(), "outputs", pod);
    }

    /** What a pod that may run on GPU nodes tolerates: their taint (EksRequests#GPU_TAINT_KEY). */
    private static io.fabric8.kubernetes.api.model.Toleration gpuToleration() {
        return new io.fabric8.kubernetes.api.model.TolerationBuilder()
                .withKey(EksRequests.GPU_TAINT_KEY)
                .withOperator("Exists")
                .withEffect("NoSchedule")
                .build();
    }

    /** The pre-pull pod's idle container: the Kubernetes pause image from ECR Public (no credentials, a few hundred KB). */
    public static final String PAUSE_IMAGE = "public.ecr.aws/eks-distro/kubernetes/pause:3.10";

    /**
     * Pulls the training image onto every node the run's pods can use, as soon as each is Ready
     * (a DaemonSet's pod is placed on a node as it joins,
     * https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#how-daemon-pods-are-scheduled):
     * on a created cluster the system node, for the data job, and the workers' nodes while the data
     * is prepared; on an existing cluster, the nodes the training pods tolerate. The kubelet then
     * finds the image present (imagePullPolicy IfNotPresent for a tagged image,
     * https://kubernetes.io/docs/concepts/containers/images/#imagepullpolicy-defaulting) and the
     * first training step waits for no pull. Its pods ask for nothing: no CPU or memory is taken
     * from the workers, and it goes with the namespace.
     */
    public io.fabric8.kubernetes.api.model.apps.DaemonSet imagePrepull() {
        boolean gpuTaint = spec.cluster().created()
                ? spec.cluster().nodeGroup().gpusPerNode() > 0
                : spec.training().gpusPerWorker() > 0;
        var pod = new PodSpecBuilder()
                .withInitContainers(new ContainerBuilder()
                        .withName("pull")
                        .withImage(spec.training().image())
                        .withCommand("true")
                        .build())
                .withContainers(new ContainerBuilder()
                        .withName("pause")
                        .withImage(PAUSE_IMAGE)
                        .build())
                .withTerminationGracePeriodSeconds(0L);
        if (spec.cluster().warm()) {
            pod.addToNodeSelector(WARM_NODEGROUP_LABEL, spec.cluster().nodegroupName());
        }
        if (gpuTaint) {
            pod.addToTolerations(gpuToleration());
        }
        return new io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder()
                .withNewMetadata()
                .withName(names.imagePrepull())
                .withNamespace(names.namespace())
                .withLabels(labels("prepull"))
                .endMetadata()
                .withNewSpec()
                .withNewSelector()
                .withMatchLabels(labels("prepull"))
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels("prepull"))
                .endMetadata()
                .withSpec(PodSecurity.confined(pod.build()))
                .endTemplate()
                .endSpec()
                .build();
    }

    /** The checkpoint sidecar's name, as its status names it. */
    public static final String CHECKPOINT_SYNC = "checkpoint-sync";

    /**
     * How often the sidecar syncs: a checkpoint is written once an epoch (minutes for real
     * trainings), so a minute loses little, and an idle sync is one ListObjectsV2 call.
     */
    public static final int CHECKPOINT_SYNC_SECONDS = 60;

    /**
     * The shell script of the checkpoint sidecar. Only pod 0 syncs (every pod sees the same shared
     * volume); the others sleep. A checkpoint is synced once its {@code .sha256} exists: train.py
     * writes it after the checkpoint's rename, so a half-written or temporary ({@code .tmp}) file is
     * never sent. On SIGTERM, which the kubelet sends sidecars after the main container has stopped
     * (https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/#sidecar-containers-and-pod-lifecycle),
     * a last sync sends the checkpoint written on the interruption. A failed sync exits non-zero
     * with the CLI's error as the termination message: the kubelet restarts the sidecar, the
     * training goes on, and CheckTraining reads the reason from its status.
     *
     * @param indexed whether the pod's index is in JOB_COMPLETION_INDEX (the Indexed Job sets it
     *     in every container, https://kubernetes.io/docs/concepts/workloads/controllers/job/#completion-mode);
     *     a PyTorchJob puts the sidecar on its Master only
     */
    static String checkpointSyncScript(boolean indexed) {
        return String.join(
                "\n",
                "set -u",
                indexed ? "if [ \"${JOB_COMPLETION_INDEX:-0}\" != 0 ]; then exec sleep infinity; fi" : "true",
                "dir=" + SHARED_DIR + "/model",
                "dest=\"$" + OUTPUT_URI_ENV + OutputSpec.CHECKPOINTS_PREFIX + "\"",
                "sync_complete() {",
                "  args=''",
                "  for digest in \"$dir\"/checkpoint-*.pt.sha256; do",
                "    [ -f \"$digest\" ] || continue",
                "    name=$(basename \"$digest\" .sha256)",
                "    args=\"$args --include $name --include $name.sha256\"",
                "  done",
                "  [ -z \"$args\" ] && return 0",
                "  aws s3 sync \"$dir\" \"$dest\" --exclude '*' $args --only-show-errors 2>/dev/termination-log"
                        + " || { cat /dev/termination-log >&2; exit 1; }",
                "}",
                "trap 'sync_complete; exit 0' TERM",
                "while true; do sync_complete; sleep " + CHECKPOINT_SYNC_SECONDS + " & wait $!; done");
    }

    /**
     * A training pod with the checkpoint sidecar: an init container with {@code restartPolicy:
     * Always} (a native sidecar, on by default since Kubernetes 1.29, GA in 1.33,
     * https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/) that runs beside the
     * trainer as the pod's service account (its EKS Pod Identity gives RunOutputsRole) and does not
     * keep the Job from completing. Small requests: it only lists and copies.
     */
    PodSpec withCheckpointSync(PodSpec pod, boolean indexed) {
        Container sidecar = new ContainerBuilder()
                .withName(CHECKPOINT_SYNC)
                .withImage(AWS_CLI_IMAGE)
                .withRestartPolicy("Always")
                .withCommand("/bin/sh", "-c", checkpointSyncScript(indexed))
                .withEnv(env(OUTPUT_URI_ENV, spec.output().s3Uri()), env("TRAINPLANE_RUN_ID", spec.runId()))
                .withResources(new ResourceRequirementsBuilder()
                        .withRequests(Map.of(
                                "cpu",
                                new Quantity(TrainingSpec.CHECKPOINT_SYNC_CPU),
                                "memory",
                                new Quantity(TrainingSpec.CHECKPOINT_SYNC_MEMORY)))
                        .withLimits(Map.of("memory", new Quantity(TrainingSpec.CHECKPOINT_SYNC_MEMORY)))
                        .build())
                .withTerminationMessagePath("/dev/termination-log")
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withVolumeMounts(mounts())
                .build();
        addInitContainer(pod, sidecar);
        return pod;
    }

    /** Where a workload of your image finds the data set and writes the model and checkpoints. */
    public static final String DATA_DIR_ENV = "TRAINPLANE_DATA_DIR";

    public static final String OUTPUT_DIR_ENV = "TRAINPLANE_OUTPUT_DIR";

    /** What the evaluation reports when your image has no evaluate command: the training's metrics. */
    public static final String METRICS_FILE = "metrics.json";

    /**
     * The training's command: the built-in train.py with the spec's arguments under {@code
     * torchrun} (the launcher's flags), or the spec's train command with the hyperparameters as
     * {@code --key value}: under {@code torchrun --no-python}, which runs it as given once per
     * process (https://docs.pytorch.org/docs/stable/elastic/run.html), or alone with launcher none.
     */
    List<String> trainCommand(List<String> torchrun) {
        WorkloadSpec workload = spec.workload();
        List<String> command = new ArrayList<>();
        if (!workload.code().yours()) {
            command.addAll(torchrun);
            command.add(WORKLOAD_DIR + "/train.py");
            command.addAll(trainingArguments());
            return command;
        }
        if (workload.launcher() == TrainLauncher.TORCHRUN) {
            command.addAll(torchrun);
            command.add("--no-python");
        }
        command.addAll(workload.train().args());
        command.addAll(workload.hyperparameterArguments());
        return command;
    }

    /**
     * A training container's environment: the role's, and with your image's code where the
     * processes meet when it launches them itself ({@code rendezvous}: null for a PyTorchJob, whose
     * operator sets PET_* and MASTER_ADDR).
     */
    List<EnvVar> trainingEnv(String rendezvous) {
        TrainingSpec t = spec.training();
        List<EnvVar> launch = new ArrayList<>(List.of(
                env("TRAINPLANE_NNODES", Integer.toString(t.workers())),
                env("TRAINPLANE_NPROC_PER_NODE", Integer.toString(t.procsPerWorker()))));
        if (rendezvous != null) {
            launch.add(env("TRAINPLANE_RDZV_ENDPOINT", rendezvous));
        }
        return roleEnv("training", spec.workload().train(), launch);
    }

    /** A data or evaluation container's environment: the role's, and what your image's code gets. */
    private List<EnvVar> roleEnv(String role, WorkloadCommand command) {
        return roleEnv(role, command, List.of());
    }

    /** The role's variables, then (your image's code only) {@code launch} and the workload's. */
    private List<EnvVar> roleEnv(String role, WorkloadCommand command, List<EnvVar> launch) {
        List<EnvVar> env =
                new ArrayList<>(List.of(env("TRAINPLANE_RUN_ID", spec.runId()), env("TRAINPLANE_ROLE", role)));
        if (spec.workload().code().yours()) {
            env.addAll(launch);
            env.addAll(workloadEnv(command));
        }
        return env;
    }

    /** The directories, the hyperparameters as TRAINPLANE_HP_*, then the command's own variables. */
    private List<EnvVar> workloadEnv(WorkloadCommand command) {
        List<EnvVar> env = new ArrayList<>();
        env.add(env(DATA_DIR_ENV, SHARED_DIR + "/data"));
        env.add(env(OUTPUT_DIR_ENV, SHARED_DIR + "/model"));
        if (spec.workload().code().shipped()) {
            env.add(env(CODE_DIR_ENV, WORKLOAD_DIR));
        }
        spec.workload().hyperparameterEnv().forEach((name, value) -> env.add(env(name, value)));
        if (command != null) {
            command.env().forEach((name, value) -> env.add(env(name, value)));
        }
        return env;
    }

    List<String> trainingArguments() {
        TrainingSpec t = spec.training();
        return List.of(
                "--data-dir", SHARED_DIR + "/data",
                "--output-dir", SHARED_DIR + "/model",
                "--epochs", Integer.toString(t.epochs()),
                "--batch-size", Integer.toString(t.batchSize()),
                "--lr", Double.toString(t.learningRate()));
    }

    Map<String, String> labels(String component) {
        Map<String, String> labels = new LinkedHashMap<>(names.labels());
        labels.put("app.kubernetes.io/name", "trainplane-" + component);
        labels.put("app.kubernetes.io/instance", spec.runId());
        labels.put(COMPONENT, component);
        return labels;
    }

    Container container(String name, List<String> command, ResourceRequirements resources, List<EnvVar> env) {
        return new ContainerBuilder()
                .withName(name)
                .withImage(spec.training().image())
                .withCommand(command)
                // Your shipped code's commands name its files as they are in the directory: train.py.
                .withWorkingDir(spec.workload().code().shipped() ? WORKLOAD_DIR : null)
                .withEnv(env)
                .withResources(resources)
                .withTerminationMessagePath("/dev/termination-log")
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withVolumeMounts(mounts())
                .build();
    }

    /** The data pod on a created cluster: sized for the system node ({@link #DATA_CPU}, {@link #DATA_MEMORY}). */
    private static ResourceRequirements systemCpuAndMemory() {
        return new ResourceRequirementsBuilder()
                .withRequests(Map.of("cpu", new Quantity(DATA_CPU), "memory", new Quantity(DATA_MEMORY)))
                .withLimits(Map.of("memory", new Quantity(DATA_MEMORY)))
                .build();
    }

    /** The data pod on an existing cluster needs no accelerator: the training's CPU and memory, as before. */
    private ResourceRequirements cpuAndMemory() {
        TrainingSpec t = spec.training();
        return new ResourceRequirementsBuilder()
                .withRequests(Map.of("cpu", new Quantity(t.cpu()), "memory", new Quantity(t.memory())))
                .withLimits(Map.of("memory", new Quantity(t.memory())))
                .build();
    }

    ResourceRequirements resources() {
        TrainingSpec t = spec.training();
        Map<String, Quantity> requests = new LinkedHashMap<>();
        requests.put("cpu", new Quantity(t.cpu()));
        requests.put("memory", new Quantity(t.memory()));
        Map<String, Quantity> limits = new LinkedHashMap<>();
        limits.put("memory", new Quantity(t.memory()));
        if (t.gpusPerWorker() > 0) {
            requests.put("nvidia.com/gpu", new Quantity(Integer.toString(t.gpusPerWorker())));
            limits.put("nvidia.com/gpu", new Quantity(Integer.toString(t.gpusPerWorker())));
        }
        return new ResourceRequirementsBuilder()
                .withRequests(requests)
                .withLimits(limits)
                .build();
    }

    /**
     * A training pod's resources: {@link #resources()} and, when the nodes have EFA interfaces,
     * its share of them ({@link #efaPerWorker()}), without which NCCL silently falls back to TCP.
     */
    ResourceRequirements trainingResources() {
        ResourceRequirements resources = resources();
        int efa = efaPerWorker();
        if (efa > 0) {
            Quantity interfaces = new Quantity(Integer.toString(efa));
            resources.getRequests().put(DevicePluginManifests.EFA_RESOURCE, interfaces);
            resources.getLimits().put(DevicePluginManifests.EFA_RESOURCE, interfaces);
        }
        return resources;
    }

    /**
     * The EFA interfaces ({@code vpc.amazonaws.com/efa}, advertised by the EFA device plugin) each
     * training pod asks for, 0 without EFA: all of its node's when one worker runs per node (EKS's
     * example, https://docs.aws.amazon.com/eks/latest/userguide/node-efa.html), an even share when
     * several do, at least one. An extended resource is requested and limited alike.
     */
    int efaPerWorker() {
        if (!spec.cluster().created() || !spec.cluster().nodeGroup().efa()) {
            return 0;
        }
        NodeGroupSpec nodes = spec.cluster().nodeGroup();
        int workersPerNode = Math.ceilDiv(spec.training().workers(), nodes.nodes());
        return Math.max(1, EfaInterfaces.count(nodes.firstType()) / workersPerNode);
    }

    /**
     * The label EKS puts on a managed node group's nodes
     * (https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html): a warm cluster's
     * training pods select their node group by it.
     */
    public static final String WARM_NODEGROUP_LABEL = "eks.amazonaws.com/nodegroup";

    /** Which node group a pod runs on. */
    enum Placement {
        /** The system node group: the data job. */
        SYSTEM,
        /** The run's node group, tainted when it has GPUs: training and evaluation. */
        WORKERS
    }

    /**
     * On a created cluster a pod selects its node group by {@value EksRequests#NODE_POOL_LABEL},
     * and the workers' pods tolerate their GPU taint; the system pool is untainted. On an existing
     * cluster nothing carries that label: no selector, and the GPU taint (the usual one) is
     * tolerated by every pod of a run that asks for GPUs.
     */
    /**
     * A training pod gets {@value #TRAINING_GRACE_SECONDS} s between SIGTERM and SIGKILL (the
     * default is 30 s): torchrun passes SIGTERM on to the ranks and gives them 30 s to finish their
     * step and write a checkpoint before it kills them; the extra time covers a slow shared volume
     * and torchrun's own exit, and stays within the two minutes' notice of a spot interruption
     * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html,
     * https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination).
     */
    PodSpec trainingPodSpec(Container trainer, String subdomain) {
        PodSpec pod = podSpec(trainer, subdomain, Placement.WORKERS);
        pod.setTerminationGracePeriodSeconds(TRAINING_GRACE_SECONDS);
        return pod;
    }

    PodSpec podSpec(Container container, String subdomain, Placement placement) {
        PodSpecBuilder pod = new PodSpecBuilder()
                .withRestartPolicy("Never")
                .withSubdomain(subdomain)
                .withContainers(container)
                .withVolumes(volumes());
        CodeRoute route = codeRoute();
        if (placement == Placement.WORKERS || route.fetched()) {
            // fetch-code reads the code as the run's Pod Identity (RunOutputsRole).
            pod.withServiceAccountName(io.trainplane.aws.eks.PodIdentity.RUN_SERVICE_ACCOUNT);
        }
        if (route.fetched()) {
            pod.withInitContainers(fetchCode());
        }
        boolean created = spec.cluster().created();
        boolean gpuTaint = created
                ? placement == Placement.WORKERS && spec.cluster().nodeGroup().gpusPerNode() > 0
                : spec.training().gpusPerWorker() > 0;
        if (created) {
            pod.addToNodeSelector(
                    EksRequests.NODE_POOL_LABEL,
                    placement == Placement.SYSTEM ? EksRequests.SYSTEM_POOL : EksRequests.WORKER_POOL);
        }
        if (spec.cluster().warm() && placement == Placement.WORKERS) {
            pod.addToNodeSelector(WARM_NODEGROUP_LABEL, spec.cluster().nodegroupName());
        }
        if (gpuTaint) {
            pod.addToTolerations(gpuToleration());
        }
        return pod.build();
    }

    private List<VolumeMount> mounts() {
        List<VolumeMount> mounts = new ArrayList<>(List.of(
                new VolumeMountBuilder()
                        .withName("workload")
                        .withMountPath(WORKLOAD_DIR)
                        .withReadOnly(true)
                        .build(),
                new VolumeMountBuilder()
                        .withName("shared")
                        .withMountPath(SHARED_DIR)
                        .build(),
                new VolumeMountBuilder()
                        .withName("dshm")
                        .withMountPath("/dev/shm")
                        .build()));
        if (spec.workload().code().shipped()) {
            mounts.add(new VolumeMountBuilder()
                    .withName("builtin")
                    .withMountPath(BUILTIN_DIR)
                    .withReadOnly(true)
                    .build());
        }
        return mounts;
    }

    private List<Volume> volumes() {
        List<Volume> volumes = new ArrayList<>(List.of(
                workloadVolume(),
                sharedVolume(),
                // NCCL and DataLoader workers need more shared memory than the container default.
                new VolumeBuilder()
                        .withName("dshm")
                        .withNewEmptyDir()
                        .withMedium("Memory")
                        .endEmptyDir()
                        .build()));
        if (spec.workload().code().shipped()) {
            VolumeBuilder builtin = new VolumeBuilder().withName("builtin");
            var configMap = builtin.withNewConfigMap().withName(names.configMap());
            if (codeRoute() == CodeRoute.CONFIGMAP) {
                for (String script : WorkloadScripts.FILES) {
                    configMap
                            .addNewItem()
                            .withKey(CodeRoute.BUILTIN_KEY_PREFIX + script)
                            .withPath(script)
                            .endItem();
                }
            }
            volumes.add(configMap.endConfigMap().build());
        }
        return volumes;
    }

    /**
     * /workload: the run's ConfigMap (the built-in scripts, or with the ConfigMap route your files,
     * each key mapped back to its path), or an emptyDir that {@value #FETCH_CODE} fills.
     */
    private Volume workloadVolume() {
        VolumeBuilder workload = new VolumeBuilder().withName("workload");
        CodeRoute route = codeRoute();
        if (route.fetched()) {
            return workload.withNewEmptyDir().endEmptyDir().build();
        }
        var configMap = workload.withNewConfigMap().withName(names.configMap());
        if (route == CodeRoute.CONFIGMAP) {
            CodeRoute.configMapKeys(spec.workload().codePackage().files())
                    .forEach((path, key) ->
                            configMap.addNewItem().withKey(key).withPath(path).endItem());
        }
        return configMap.endConfigMap().build();
    }

    /**
     * Copies the code into the pod's /workload before its containers start: {@code aws s3 cp
     * --recursive} of the artifacts bucket's prefix the CLI uploaded to, or of workload.code's
     * s3:// prefix, as the run's Pod Identity (RunOutputsRole may read the run's own prefix and the
     * shared inputs/; another bucket needs a policy of yours). An empty prefix fails it: no code,
     * nothing for the commands to run. On the bucket route the copy is then digested as {@link
     * io.trainplane.spec.CodeDirectory#digest} does (each file's path, size and bytes, in path
     * order) and must be the package the CLI packed, whose digest rides in the run's spec: a file
     * changed, added or removed in the bucket after the upload fails it with {@value
     * #CODE_MISMATCH} before any of the run's code starts.
     */
    Container fetchCode() {
        CodeRoute route = codeRoute();
        List<String> lines = new ArrayList<>(List.of(
                "set -eu",
                "aws s3 cp \"$" + CODE_URI_ENV + "\" " + WORKLOAD_DIR + " --recursive --only-show-errors",
                "if [ -z \"$(ls -A " + WORKLOAD_DIR + ")\" ]; then",
                "  printf 'no code under %s: the prefix is empty\\n' \"$" + CODE_URI_ENV + "\" > /dev/termination-log",
                "  exit 1",
                "fi"));
        List<EnvVar> env = new ArrayList<>(
                List.of(env(CODE_URI_ENV, route.prefix(spec.workload())), env("TRAINPLANE_RUN_ID", spec.runId())));
        if (route == CodeRoute.ARTIFACTS_BUCKET) {
            lines.addAll(List.of(
                    "actual=$(cd " + WORKLOAD_DIR + " && find . -type f | sed 's|^\\./||' | LC_ALL=C sort"
                            + " | while IFS= read -r f; do printf '%s\\0%s\\0' \"$f\" \"$(wc -c < \"$f\")\"; cat \"$f\"; done"
                            + " | sha256sum | cut -d' ' -f1)",
                    "if [ \"$actual\" != \"$" + CODE_SHA256_ENV + "\" ]; then",
                    "  printf 'CODE DIGEST MISMATCH the files under %s have SHA-256 %s, the package uploaded for this"
                            + " run has %s\\n' \"$" + CODE_URI_ENV + "\" \"$actual\" \"$" + CODE_SHA256_ENV
                            + "\" > /dev/termination-log",
                    "  exit " + CODE_MISMATCH,
                    "fi"));
            env.add(env(CODE_SHA256_ENV, spec.workload().codePackage().sha256()));
        }
        return new ContainerBuilder()
                .withName(FETCH_CODE)
                .withImage(AWS_CLI_IMAGE)
                .withCommand("/bin/sh", "-c", String.join("\n", lines))
                .withEnv(env)
                .withResources(awsCliResources())
                .withTerminationMessagePath("/dev/termination-log")
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withVolumeMounts(new VolumeMountBuilder()
                        .withName("workload")
                        .withMountPath(WORKLOAD_DIR)
                        .build())
                .build();
    }

    /** {@code pod} with {@code command}'s secrets by reference, read by {@value SecretFetch#CONTAINER} ({@link SecretFetch}). */
    PodSpec withSecrets(PodSpec pod, WorkloadCommand command) {
        SecretFetch.addTo(pod, command, AWS_CLI_IMAGE, awsCliResources());
        return pod;
    }

    /** Adds {@code container} after the pod's init containers (fetch-code comes first: the others may need the code). */
    private static void addInitContainer(PodSpec pod, Container container) {
        List<Container> init = new ArrayList<>(pod.getInitContainers() == null ? List.of() : pod.getInitContainers());
        init.add(container);
        pod.setInitContainers(init);
    }

    /** The run's EFS or FSx volume through its claim; without a volume in the spec, a pod-local directory. */
    private Volume sharedVolume() {
        VolumeBuilder shared = new VolumeBuilder().withName("shared");
        return spec.volume().type() != VolumeType.NONE
                ? shared.withNewPersistentVolumeClaim()
                        .withClaimName(VolumeManifests.CLAIM)
                        .endPersistentVolumeClaim()
                        .build()
                : shared.withNewEmptyDir().endEmptyDir().build();
    }

    static EnvVar env(String name, String value) {
        return new EnvVarBuilder().withName(name).withValue(value).build();
    }
}
