package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunPrices;
import io.trainplane.core.Json;
import io.trainplane.local.Faults;
import io.trainplane.local.LambdaFault;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalRun;
import io.trainplane.local.LocalStore;
import io.trainplane.local.PodLogs;
import io.trainplane.local.RunReport;
import io.trainplane.local.asl.HistoryEvent;
import io.trainplane.local.asl.StateMachine;
import io.trainplane.local.process.ProcessWorkload;
import io.trainplane.local.process.PythonRuntime;
import io.trainplane.local.sim.ClusterFault;
import io.trainplane.local.sim.FaultPlan;
import io.trainplane.local.sim.SimulatedS3;
import io.trainplane.local.sim.SimulatedWorkload;
import io.trainplane.runs.CostEstimate;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description =
                "Run the real TrainingPipeline state machine locally, with the real handlers, against a simulated AWS account and Kubernetes cluster. No AWS account needed.")
final class RunCommand extends ClientsCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @Mixin
    SpecInput spec;

    @Option(
            names = "--output",
            defaultValue = "text",
            paramLabel = "FORMAT",
            description =
                    "text (default), json or yaml: the run's summary as one document on stdout at the end, an error's too")
    OutputFormat output;

    @Option(
            names = "--progress",
            defaultValue = "auto",
            paramLabel = "MODE",
            description = "how stderr shows the run: " + PhaseLines.Mode.HELP)
    PhaseLines.Mode progressMode;

    @Option(names = "--fail-at", paramLabel = "STATE", description = "make this Task fail every attempt (repeatable)")
    List<String> failAt = List.of();

    @Option(
            names = "--flaky",
            paramLabel = "STATE",
            description = "make this Task's first attempt fail transiently (repeatable)")
    List<String> flaky = List.of();

    @Option(
            names = "--fault",
            paramLabel = "SERVICE:OPERATION",
            description =
                    "the simulated AWS refuses every call of this operation, e.g. eks:CreateNodegroup (repeatable);"
                            + " lambda:SnapStartNotReady, lambda:SnapStartTimeout and lambda:Timeout strike each"
                            + " function's first invocation as the Lambda service would")
    List<String> awsFailures = List.of();

    @Option(
            names = "--throttle",
            paramLabel = "SERVICE:OPERATION",
            description =
                    "the first call of this operation gets a ThrottlingException, e.g. efs:CreateMountTarget (repeatable)")
    List<String> awsThrottles = List.of();

    @Option(
            names = "--cluster-fault",
            paramLabel = "FAULT",
            description =
                    "the simulated cluster shows this trouble: unschedulable, untolerated-taint, every-node-tainted, "
                            + "device-plugin-removed, csi-driver-removed, node-lost, spot-interruption, image-pull, crash-loop, "
                            + "bad-checksum, "
                            + "low-accuracy or job-deleted (docs/local-twin.md); node-lost and spot-interruption "
                            + "strike half-way through the training, or after EPOCHS epochs with FAULT@EPOCHS, and also "
                            + "take --runtime process (the real training is stopped and resumes)")
    String clusterFault;

    @Option(
            names = "--runtime",
            defaultValue = "auto",
            paramLabel = "RUNTIME",
            description =
                    "what the pods do: simulated (a model of the workload), process (the real scripts, built-in or your workload.code directory, as local processes: needs a python that can import torch, $TRAINPLANE_PYTHON or python3 on PATH; not for workload.code image), auto (process when such a python exists and the code is not in an image, else simulated; default)")
    Runtime runtime;

    /** {@code --runtime}. */
    enum Runtime {
        auto,
        simulated,
        process
    }

    @Option(
            names = "--abort-at",
            paramLabel = "STATE",
            description = "stop the execution when this state is entered, as in the console; the safety net cleans up")
    String abortAt;

    @Option(
            names = "--store",
            paramLabel = "DIR",
            description =
                    "keep the run's record in the local store in DIR (default: $TRAINPLANE_HOME, else .trainplane/)")
    Path store;

    @Option(
            names = "--secret",
            paramLabel = "NAME=FILE",
            description = "put FILE's content into the local account as the Secrets Manager secret and the SSM"
                    + " parameter NAME (repeatable): what the spec's env values {\"secretArn\": ...} and"
                    + " {\"ssmParameter\": ...} read in this run. Never printed, and kept nowhere after the run.")
    Map<String, Path> secrets = Map.of();

    @Option(names = "--no-store", description = "keep nothing after the run")
    boolean noStore;

    @Option(
            names = "--audit-log",
            paramLabel = "FILE",
            description = "write the IAM decision of every simulated AWS call to FILE, one JSON object a line")
    Path auditLog;

    /** Each --secret's value, read before anything runs: a file that cannot be read is the user's mistake. */
    private Map<String, String> secretValues() {
        Map<String, String> values = new java.util.LinkedHashMap<>();
        secrets.forEach((name, file) -> {
            try {
                values.put(name, java.nio.file.Files.readString(file));
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                throw new UserInputException("--secret " + name + "=" + file + ": cannot read " + file + " ("
                        + e.getClass().getSimpleName() + "): give a readable file that holds the value");
            }
        });
        return values;
    }

    @Override
    public Integer call() {
        if (noStore && store != null) {
            throw new UserInputException("--store and --no-store contradict each other: give one");
        }
        // The twin is one Region's account: the spec is held to what that Region sells.
        JsonNode normalized = spec.normalized(today(), LocalCloud.region());
        checkStateNames();
        String runId = SpecInput.runIdOf(normalized);
        Optional<CodeShipment> code =
                CodeShipment.pack(spec, (ObjectNode) normalized, runId, LocalCloud.artifactsBucket());
        Faults faults = faults(normalized);
        Map<String, String> secretValues = secretValues();
        // The local stack's ceilings, as StartRun judges them, refused here with the spec's errors (exit 2).
        RunSpec ceiled = RunSpecs.fromNormalized(normalized);
        LocalCloud.ceilings()
                .require(
                        ceiled,
                        CostEstimate.of(ceiled, RunPrices.forRegion(LocalCloud.region()), today())
                                .ceilingWorstCase(),
                        0);
        if (clusterFault != null
                && Faults.interrupts(fault())
                && "mpijob".equals(normalized.path("training").path("launcher").asText())) {
            // The twin takes the nodes of an Indexed Job's or a PyTorchJob's training, not yet an MPIJob's.
            throw new UserInputException("--cluster-fault " + fault() + " is not simulated for training.launcher"
                    + " mpijob: the twin interrupts an Indexed Job's or a PyTorchJob's training only; drop the fault,"
                    + " or use training.launcher indexed-job or pytorchjob to rehearse interruptions");
        }
        checkAuditLog();
        Path dir = LocalStore.dir(store, clients.environment());
        PrintWriter err = command.commandLine().getErr();
        // Which runtime, and whether the simulated one can judge the gate, before anything is created.
        ProcessWorkload runtimeProcesses = processRuntime(
                "pytorchjob".equals(normalized.path("training").path("launcher").asText()),
                "image".equals(normalized.at("/workload/code").asText()));
        if (runtimeProcesses == null) {
            refuseAGateTheSimulationCannotJudge(
                    normalized.at("/evaluation/metric").asText("accuracy"));
        }
        LiveStore claimed;
        try {
            // The store is claimed before anything runs: a run of the same id going on elsewhere, or a
            // store that cannot be read, stops this one here.
            claimed = noStore ? null : LiveStore.claim(dir, runId, storeOption(dir), err);
        } catch (RuntimeException e) {
            if (runtimeProcesses != null) {
                runtimeProcesses.close();
            }
            throw e;
        }
        // Opened first and closed last: a Ctrl-C waits for the cleanup, the store, the summary and
        // the end of the local processes.
        try (LiveStore live = claimed;
                Interruption interruption = Interruption.onCtrlC(runId, command.commandLine())) {
            RunReport report;
            try (ProcessWorkload processes = runtimeProcesses;
                    LocalCloud cloud = processes == null
                            ? new LocalCloud(clients.clock().instant())
                            : new LocalCloud(clients.clock().instant(), processes)) {
                secretValues.forEach((name, value) -> {
                    cloud.secrets().putSecret(name, value);
                    cloud.secrets().putParameter(name, value);
                });
                // What the CLI does before a run on a stack: an s3:// code prefix looked at, the packed
                // directory delivered where its route takes it.
                CodePrefixCheck.require(
                        RunSpecs.fromNormalized(normalized).workload().code(), prefix -> listed(cloud, prefix), err);
                code.ifPresent(c -> {
                    c.deliver(
                            new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock()),
                            (key, bytes) -> cloud.s3()
                                    .putObject(LocalCloud.artifactsBucket(), key, bytes, SimulatedS3.Transport.TLS));
                    err.println(c.summary());
                });
                Progress progress = new Progress(
                        err, cloud.clock(), progressMode, clients.terminal().interactive());
                PodLogs logs = new PodLogs(() -> cloud.kubernetesClusters().admins(), runId);
                java.util.function.Consumer<HistoryEvent> events = live == null
                        ? progress
                        : event -> {
                            progress.accept(event);
                            if (PodLogs.beforePodsGo(event.type(), event.stateName())) {
                                logs.capture();
                            }
                            live.onEvent(event, cloud.clients().dynamoDb(), logs);
                        };
                LocalRun run = new LocalRun(cloud, faults, events).abortingAt(abortAt);
                report = interruption.stopping(run::stop, () -> run.execute(normalized, runId));
                progress.finish(report);
                if (auditLog != null) {
                    cloud.iam().write(auditLog);
                }
                refusedAtStart(report);
                if (live != null) {
                    save(live, cloud, logs, runId);
                }
            }
            interruption.reportIfStopped(report);
            if (output.structured()) {
                out().println(output.write(Json.mapper().valueToTree(report)));
            } else {
                TextReport.print(out(), report, noStore ? null : statusCommand(runId, dir));
            }
            return report.succeeded() ? Main.SUCCEEDED : Main.FAILED;
        }
    }

    /** The command that shows this run from the store it is kept in. */
    private String statusCommand(String runId, Path dir) {
        return "trainplane status " + runId + " " + storeOption(dir);
    }

    /** How the other commands name the store this run is kept in. */
    private String storeOption(Path dir) {
        return store == null ? "--local" : "--store " + dir;
    }

    /**
     * StartRun refused the spec (its ceilings, its grants, a resumeFrom it cannot find): nothing was
     * created, and the user's mistake is said as validate says it (exit 2), not as a failed run.
     */
    private static void refusedAtStart(RunReport report) {
        if ("StartRun".equals(report.failedState()) && "InvalidSpecException".equals(report.error())) {
            io.trainplane.spec.InvalidSpecException.fromMessage(report.cause()).ifPresent(refused -> {
                throw refused;
            });
        }
    }

    /** --audit-log's file is written at the end of the run: a place it cannot go is refused before the run. */
    private void checkAuditLog() {
        if (auditLog == null) {
            return;
        }
        Path parent = auditLog.toAbsolutePath().getParent();
        if (java.nio.file.Files.isDirectory(auditLog)) {
            throw new UserInputException("--audit-log " + auditLog + " is a directory: name a file, e.g. --audit-log "
                    + auditLog.resolve("audit.jsonl"));
        }
        if (parent == null || !java.nio.file.Files.isDirectory(parent)) {
            throw new UserInputException("--audit-log " + auditLog + ": the directory " + parent
                    + " does not exist; create it (mkdir -p " + parent + ") or name a file in an existing one");
        }
        if (!java.nio.file.Files.isWritable(parent)
                || (java.nio.file.Files.exists(auditLog) && !java.nio.file.Files.isWritable(auditLog))) {
            throw new UserInputException(
                    "--audit-log " + auditLog + " cannot be written: name a file in a directory you can write");
        }
    }

    /**
     * The run's record, timeline and pods' logs in the local store, for status, list, watch, logs
     * and cancel with --local. The run is over either way: a store that cannot be written is a
     * warning, not a failed run.
     */
    private void save(LiveStore live, LocalCloud cloud, PodLogs logs, String runId) {
        long start = System.nanoTime();
        try {
            live.write(cloud.clients().dynamoDb(), logs);
            command.commandLine()
                    .getErr()
                    .printf(
                            "stored in %s (%.1f s): %s%n",
                            live.dir(), (System.nanoTime() - start) / 1e9, statusCommand(runId, live.dir()));
        } catch (RuntimeException e) {
            command.commandLine()
                    .getErr()
                    .println("warning: the run was not stored in " + live.dir() + ": " + e.getMessage());
        }
    }

    /**
     * The simulated runtime models the built-in CIFAR-10 evaluation: a gate on another metric would
     * fail the run at its end for want of it, so the run is refused before it starts.
     */
    private void refuseAGateTheSimulationCannotJudge(String metric) {
        if (!SimulatedWorkload.REPORTED_METRICS.contains(metric)) {
            throw new UserInputException("the simulated runtime reports only "
                    + String.join(", ", new java.util.TreeSet<>(SimulatedWorkload.REPORTED_METRICS))
                    + " (a model of the built-in CIFAR-10 evaluation), and evaluation.metric is \"" + metric
                    + "\": run it with --runtime process (a python that can import torch: "
                    + PythonRuntime.WHERE_LOOKED + "; " + PythonRuntime.HOW_TO_GET + "), or gate on accuracy");
        }
    }

    /** The process runtime when asked for (or, with auto, when PyTorch is there); null for the simulated one. */
    private ProcessWorkload processRuntime(boolean pyTorchJob, boolean codeInImage) {
        // The process runtime runs the built-in scripts and your shipped code; an image's code is not here.
        if (codeInImage && runtime == Runtime.process) {
            throw new UserInputException("--runtime process runs your code with the local python, and workload.code"
                    + " is \"image\": the code is inside the image, which a local run does not have. Use --runtime"
                    + " simulated, or to rehearse the code itself set workload.code to the local directory that holds"
                    + " it (e.g. \".\") with commands that run it from there ([\"python\", \"train.py\"])");
        }
        if (codeInImage && runtime == Runtime.auto) {
            return null;
        }
        if (clusterFault != null && runtime == Runtime.process && !Faults.interrupts(fault())) {
            throw new UserInputException("--cluster-fault " + fault()
                    + " is simulated: use it with --runtime simulated or auto (the process runtime takes node-lost and "
                    + "spot-interruption)");
        }
        if (clusterFault != null && runtime == Runtime.process && pyTorchJob) {
            throw new UserInputException("--cluster-fault " + fault() + " with --runtime process interrupts the "
                    + "Indexed Job's training only: drop training.launcher: pytorchjob, or use --runtime simulated");
        }
        if (runtime == Runtime.simulated || (clusterFault != null && runtime == Runtime.auto)) {
            return null;
        }
        Optional<PythonRuntime> python = PythonRuntime.detect(clients.environment());
        if (python.isEmpty()) {
            if (runtime == Runtime.process) {
                throw new UserInputException("--runtime process needs a python that can import torch, and none was"
                        + " found (" + PythonRuntime.WHERE_LOOKED + "). To get one: " + PythonRuntime.HOW_TO_GET);
            }
            // auto: said once, plainly, so a made-up metric is never taken for the code's own.
            command.commandLine()
                    .getErr()
                    .println("simulated runtime: no python that can import torch was found ("
                            + PythonRuntime.WHERE_LOOKED + "), so the pods run a model of the workload, not your"
                            + " code. To run your code: " + PythonRuntime.HOW_TO_GET);
            return null;
        }
        boolean keep = "1".equals(clients.environment().get("TRAINPLANE_KEEP_WORKDIR"));
        ProcessWorkload processes = ProcessWorkload.inTemporaryDirectory(python.get(), keep);
        command.commandLine()
                .getErr()
                .println("process runtime: " + python.get().python() + ", pods run in " + processes.root()
                        + (keep ? " (kept)" : " (removed at the end; TRAINPLANE_KEEP_WORKDIR=1 keeps it)"));
        return processes;
    }

    /** What the simulated S3 says of the code's prefix, asked as the user. */
    private static CodePrefixCheck.Answer listed(LocalCloud cloud, io.trainplane.spec.WorkloadCode.S3Prefix prefix) {
        try {
            return cloud.s3()
                            .listObjectsV2(prefix.bucket(), CodePrefixCheck.key(prefix), SimulatedS3.Transport.TLS)
                            .isEmpty()
                    ? CodePrefixCheck.Answer.EMPTY
                    : CodePrefixCheck.Answer.OBJECTS;
        } catch (SimulatedS3.S3Exception e) {
            return switch (e.code()) {
                case "NoSuchBucket" -> CodePrefixCheck.Answer.NO_SUCH_BUCKET;
                case "AccessDenied" -> CodePrefixCheck.Answer.DENIED;
                default -> throw e;
            };
        }
    }

    /** The faults asked for; a malformed or unknown AWS operation or cluster fault is invalid input. */
    private Faults faults(JsonNode spec) {
        try {
            FaultPlan check = new FaultPlan();
            awsFailures.stream().filter(f -> !LambdaFault.isLambda(f)).forEach(check::fail);
            LambdaFault.in(Set.copyOf(awsFailures));
            awsThrottles.forEach(check::throttle);
            return new Faults(
                    Set.copyOf(failAt),
                    Set.copyOf(flaky),
                    Set.copyOf(awsFailures),
                    Set.copyOf(awsThrottles),
                    fault(),
                    faultEpochs(spec));
        } catch (IllegalArgumentException e) {
            throw new UserInputException(e.getMessage());
        }
    }

    /** The cluster fault of {@code --cluster-fault FAULT[@EPOCHS]}, or null. */
    private ClusterFault fault() {
        return clusterFault == null ? null : ClusterFault.of(clusterFault.replaceFirst("@.*$", ""));
    }

    /** The EPOCHS of {@code --cluster-fault FAULT@EPOCHS} (0 without): an epoch the training completes and goes on from. */
    private int faultEpochs(JsonNode spec) {
        int at = clusterFault == null ? -1 : clusterFault.indexOf('@');
        if (at < 0) {
            return 0;
        }
        String epochs = clusterFault.substring(at + 1);
        int trained = spec.path("training").path("epochs").asInt();
        if (!epochs.matches("[1-9]\\d{0,3}") || Integer.parseInt(epochs) >= trained) {
            throw new UserInputException("--cluster-fault " + clusterFault + ": EPOCHS is how many epochs the training "
                    + "completes before the fault strikes, from 1 to " + (trained - 1)
                    + " for this spec's training.epochs " + trained);
        }
        return Integer.parseInt(epochs);
    }

    private void checkStateNames() {
        Set<String> names = StateMachine.parse(
                        LocalRun.definition(LocalRun.PIPELINE), LocalCloud.substitutions(LocalCloud.PIPELINE_MACHINE))
                .stateNames();
        Set<String> asked = new LinkedHashSet<>(failAt);
        asked.addAll(flaky);
        if (abortAt != null) {
            asked.add(abortAt);
        }
        for (String state : asked) {
            if (!names.contains(state)) {
                throw new UserInputException(
                        "the pipeline has no state named '" + state + "'; states: " + String.join(", ", names));
            }
        }
    }

    private PrintWriter out() {
        return command.commandLine().getOut();
    }
}
