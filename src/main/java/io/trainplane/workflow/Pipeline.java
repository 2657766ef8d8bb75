package io.trainplane.workflow;

import static io.trainplane.workflow.LambdaFunction.Role.CLUSTER_WORK;
import static io.trainplane.workflow.LambdaFunction.Role.RUN_RECORD;
import static io.trainplane.workflow.Priming.ACCOUNT_SWEEP;
import static io.trainplane.workflow.Priming.CLOUD_CONTROL;
import static io.trainplane.workflow.Priming.EFS_FILE_SYSTEM;
import static io.trainplane.workflow.Priming.EKS_CLUSTER;
import static io.trainplane.workflow.Priming.EKS_NODEGROUP;
import static io.trainplane.workflow.Priming.EKS_NODEGROUP_CREATE;
import static io.trainplane.workflow.Priming.EXECUTION_START;
import static io.trainplane.workflow.Priming.INSTANCE_CATALOG;
import static io.trainplane.workflow.Priming.KUBERNETES_ACCESS;
import static io.trainplane.workflow.Priming.RUN_EVENT;
import static io.trainplane.workflow.Priming.SPEC_VALIDATION;

import io.trainplane.clients.Clients;
import io.trainplane.core.TransientException;
import io.trainplane.workflow.LambdaFunction.Role;
import io.trainplane.workflow.StateMachineDefinition.Catch;
import io.trainplane.workflow.StateMachineDefinition.Retrier;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Trainplane's Lambda functions and its two state machines, declared once. What names a function
 * or a state is made from here: statemachines/*.asl.json, functions.mk and template.yaml's function
 * and log group resources (written by {@code make statemachines}, see {@link GeneratedFiles}), the
 * entry points in functions/, the handlers local mode and the benchmark run, the jar each function
 * ships and what it primes for SnapStart. StateMachinesTest fails while a generated file is stale;
 * StackConsistencyTest holds what is still written by hand (the entry points, the state machines'
 * substitutions in template.yaml) to these functions.
 *
 * <p>From a state's name to its code: the state's Task below names its function, whose case in
 * {@code step()} names its step class.
 */
public final class Pipeline {
    private Pipeline() {}

    // The functions: name (template.yaml <Name>Function and <Name>Logs, entry point
    // io.trainplane.functions.<Name>), description, execution role and what else template.yaml gives
    // it, and what SnapStart primes; the step each runs is in step() below. kubernetes(...) ones reach
    // a cluster's Kubernetes API: they ship the jar with the Kubernetes client, run as the cluster work
    // role and prime the way to the cluster.
    public static final LambdaFunction START_RUN = aws(
            "StartRun",
            deploy("Validates the spec and creates the run record", Role.START_RUN),
            SPEC_VALIDATION,
            INSTANCE_CATALOG,
            RUN_EVENT);
    public static final LambdaFunction CREATE_CLUSTER =
            aws("CreateCluster", deploy("Creates the run's EKS cluster", CLUSTER_WORK), CLOUD_CONTROL);
    public static final LambdaFunction CHECK_CLUSTER = aws(
            "CheckCluster", deploy("Looks once at the run's EKS cluster", CLUSTER_WORK), EKS_CLUSTER, CLOUD_CONTROL);
    public static final LambdaFunction CREATE_NODEGROUP = aws(
            "CreateNodegroup",
            deploy("Creates the run's node group (and its launch template when needed)", CLUSTER_WORK),
            EKS_CLUSTER,
            EKS_NODEGROUP,
            EKS_NODEGROUP_CREATE,
            CLOUD_CONTROL);
    public static final LambdaFunction CHECK_NODEGROUP = aws(
            "CheckNodegroup", deploy("Looks once at the run's node group", CLUSTER_WORK), EKS_CLUSTER, EKS_NODEGROUP);
    public static final LambdaFunction CONFIGURE_CLUSTER =
            kubernetes("ConfigureCluster", "Installs the add-ons and the device plugin the run needs");
    public static final LambdaFunction CONNECT_CLUSTER =
            kubernetes("ConnectCluster", "Connects to the cluster and creates the run's namespace");
    public static final LambdaFunction SCALE_WORKERS =
            kubernetes("ScaleWorkers", "Scales a warm cluster's node group for the run and waits for its nodes");
    public static final LambdaFunction CREATE_VOLUME =
            aws("CreateVolume", deploy("Creates or adopts the run's EFS file system", CLUSTER_WORK), EFS_FILE_SYSTEM);
    public static final LambdaFunction CHECK_VOLUME = aws(
            "CheckVolume",
            deploy("Looks once at the file system and makes its mount targets", CLUSTER_WORK),
            EFS_FILE_SYSTEM,
            EKS_CLUSTER);
    public static final LambdaFunction BIND_VOLUME =
            kubernetes("BindVolume", "Binds the file system into Kubernetes (StorageClass, PV, PVC)");
    public static final LambdaFunction START_DATA_JOB = kubernetes("StartDataJob", "Starts the data Job");
    public static final LambdaFunction START_TRAINING = kubernetes("StartTraining", "Starts the training Job");
    public static final LambdaFunction CHECK_TRAINING = kubernetes("CheckTraining", "Looks once at the training Job");
    public static final LambdaFunction START_EVALUATION = kubernetes("StartEvaluation", "Starts the evaluation Job");
    public static final LambdaFunction START_OUTPUTS =
            kubernetes("StartOutputs", "Starts the Job that copies the run's outputs to S3");
    public static final LambdaFunction CHECK_JOB = kubernetes("CheckJob", "Looks once at a Job of the run");
    public static final LambdaFunction COLLECT_RESULTS =
            kubernetes("CollectResults", "Stores the evaluation's metrics; applies the quality gate");
    public static final LambdaFunction RECORD_FAILURE =
            aws("RecordFailure", deploy("Writes a failure into the run record", RUN_RECORD), RUN_EVENT);
    public static final LambdaFunction TEARDOWN =
            kubernetes("Teardown", "Deletes what the run created and reports what is left");
    public static final LambdaFunction FINISH_RUN =
            aws("FinishRun", deploy("Ends the run and publishes its outcome", RUN_RECORD), RUN_EVENT);
    public static final LambdaFunction CLOSE_RUN = aws(
            "CloseRun",
            deploy("Ends a run whose pipeline stopped without ending it (CANCELLED or FAILED)", RUN_RECORD),
            RUN_EVENT);
    // In no state machine: EventBridge invokes these (the safety-net rule, the janitor's and the
    // retraining schedules); their events are declared with them.
    public static final LambdaFunction SAFETY_NET = aws(
            "SafetyNet",
            deploy(
                            "Starts Cleanup for a TrainingPipeline execution that was stopped, timed out or failed",
                            Role.SAFETY_NET)
                    .withVariable("CLEANUP_STATE_MACHINE_ARN", "!Ref Cleanup")
                    .withEvents(
                            """
                            PipelineStopped:
                              Type: EventBridgeRule
                              Properties:
                                # No EventBusName: Step Functions publishes status changes on the default bus.
                                Pattern:
                                  source: [aws.states]
                                  detail-type: [Step Functions Execution Status Change]
                                  detail:
                                    status: [ABORTED, TIMED_OUT, FAILED]
                                    stateMachineArn: [!Ref TrainingPipeline]
                                RetryPolicy:
                                  MaximumEventAgeInSeconds: 86400
                                  MaximumRetryAttempts: 185
                            """),
            EXECUTION_START);
    public static final LambdaFunction JANITOR = aws(
            "Janitor",
            deploy("Cleans up what finished, unknown or expired runs left behind (scheduled)", Role.JANITOR)
                    .withTimeout(Duration.ofMinutes(5))
                    .withVariable("CLEANUP_STATE_MACHINE_ARN", "!Ref Cleanup")
                    .withVariable("TRAINING_PIPELINE_ARN", "!Ref TrainingPipeline")
                    .withEvents(
                            """
                            Sweep:
                              Type: Schedule
                              Properties:
                                Schedule: !Ref JanitorSchedule
                                Description: Trainplane janitor sweep
                            """),
            ACCOUNT_SWEEP,
            EKS_CLUSTER,
            EKS_NODEGROUP,
            CLOUD_CONTROL,
            EXECUTION_START,
            RUN_EVENT);
    // Deployed only with a RetrainingSchedule; the schedule (ScheduledRetraining) is in template.yaml.
    public static final LambdaFunction START_SCHEDULED_RUN = aws(
            "StartScheduledRun",
            deploy("Starts the TrainingPipeline for one firing of the retraining schedule", Role.START_SCHEDULED_RUN)
                    .withCondition("HasRetrainingSchedule")
                    .withVariable("TRAINING_PIPELINE_ARN", "!Ref TrainingPipeline")
                    .withVariable("RETRAINING_OVERLAP", "!Ref RetrainingOverlap"),
            SPEC_VALIDATION,
            EXECUTION_START,
            RUN_EVENT);

    /** Every function, in pipeline order. */
    public static final List<LambdaFunction> FUNCTIONS = List.of(
            START_RUN,
            CREATE_CLUSTER,
            CHECK_CLUSTER,
            CREATE_NODEGROUP,
            CHECK_NODEGROUP,
            CONFIGURE_CLUSTER,
            CONNECT_CLUSTER,
            SCALE_WORKERS,
            CREATE_VOLUME,
            CHECK_VOLUME,
            BIND_VOLUME,
            START_DATA_JOB,
            START_TRAINING,
            CHECK_TRAINING,
            START_EVALUATION,
            START_OUTPUTS,
            CHECK_JOB,
            COLLECT_RESULTS,
            RECORD_FAILURE,
            TEARDOWN,
            FINISH_RUN,
            CLOSE_RUN,
            SAFETY_NET,
            JANITOR,
            START_SCHEDULED_RUN);

    /**
     * The step each function runs, on its clients. One switch, not a constructor reference per
     * function: those are linked as this class loads, which would load every step into every
     * function (the Kubernetes ones need the client the AWS-only jar leaves out) and cost each cold
     * start half a millisecond per function.
     */
    private static Step step(String function, Clients clients) {
        return switch (function) {
            case "StartRun" -> StepWiring.startRun(clients);
            case "CreateCluster" -> StepWiring.createCluster(clients);
            case "CheckCluster" -> StepWiring.checkCluster(clients);
            case "CreateNodegroup" -> StepWiring.createNodegroup(clients);
            case "CheckNodegroup" -> StepWiring.checkNodegroup(clients);
            case "ConfigureCluster" -> StepWiring.configureCluster(clients);
            case "ConnectCluster" -> StepWiring.connectCluster(clients);
            case "ScaleWorkers" -> StepWiring.scaleWorkers(clients);
            case "CreateVolume" -> StepWiring.createVolume(clients);
            case "CheckVolume" -> StepWiring.checkVolume(clients);
            case "BindVolume" -> StepWiring.bindVolume(clients);
            case "StartDataJob" -> StepWiring.startDataJob(clients);
            case "StartTraining" -> StepWiring.startTraining(clients);
            case "CheckTraining" -> StepWiring.checkTraining(clients);
            case "StartEvaluation" -> StepWiring.startEvaluation(clients);
            case "StartOutputs" -> StepWiring.startOutputs(clients);
            case "CheckJob" -> StepWiring.checkJob(clients);
            case "CollectResults" -> StepWiring.collectResults(clients);
            case "RecordFailure" -> StepWiring.recordFailure(clients);
            case "Teardown" -> StepWiring.teardown(clients);
            case "FinishRun" -> StepWiring.finishRun(clients);
            case "CloseRun" -> StepWiring.closeRun(clients);
            case "SafetyNet" -> StepWiring.safetyNet(clients);
            case "Janitor" -> StepWiring.janitor(clients);
            case "StartScheduledRun" -> StepWiring.startScheduledRun(clients);
            default -> throw new IllegalArgumentException("no step for " + function);
        };
    }

    /** The function of this name; unknown names are a bug in the caller. */
    public static LambdaFunction function(String name) {
        return FUNCTIONS.stream()
                .filter(f -> f.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no function " + name));
    }

    /** The functions that ship the artifact, in pipeline order. */
    public static List<LambdaFunction> shipping(LambdaArtifact artifact) {
        return FUNCTIONS.stream().filter(f -> f.artifact() == artifact).toList();
    }

    /**
     * Lambda's own transient errors, retried soon and often as AWS advises
     * (https://docs.aws.amazon.com/step-functions/latest/dg/bp-lambda-serviceexception.html).
     */
    static final Retrier LAMBDA_ERRORS = new Retrier(
            List.of(
                    "Lambda.ServiceException",
                    "Lambda.AWSLambdaException",
                    "Lambda.SdkClientException",
                    "Lambda.TooManyRequestsException",
                    "Lambda.ClientExecutionTimeoutException"),
            2,
            6,
            2,
            60);
    /**
     * A SnapStart version Lambda is still restoring: idle for 14 days it becomes Inactive and is
     * initialized again on the next invoke (SnapStartNotReadyException), or its restore ran out of
     * time (SnapStartTimeoutException); retried for minutes, not seconds
     * (https://docs.aws.amazon.com/lambda/latest/dg/snapstart-troubleshooting.html).
     */
    static final Retrier SNAPSTART_ERRORS = new Retrier(
            List.of("Lambda.SnapStartNotReadyException", "Lambda.SnapStartTimeoutException"), 10, 6, 2, 120);
    /**
     * A step's "not now" from the cloud, and a function that died: out of memory (Lambda.Unknown) or
     * past its Timeout, which Lambda reports as the error type Sandbox.Timedout ("Task timed out
     * after N seconds"; https://docs.aws.amazon.com/lambda/latest/dg/troubleshooting-invocation.html).
     */
    static final Retrier TRANSIENT_ERRORS = new Retrier(
            List.of(TransientException.class.getName(), "Lambda.Unknown", "Sandbox.Timedout"), 5, 5, 2, 120);
    /** Every Task's retriers; what they let through goes to its Catch. */
    static final List<Retrier> RETRIES = List.of(LAMBDA_ERRORS, SNAPSTART_ERRORS, TRANSIENT_ERRORS);
    /** An AWS SDK call's errors that the SDK does not name: throttling and the service's own faults. */
    static final Retrier SDK_ERRORS = new Retrier(List.of("Sfn.SfnException"), 2, 5, 2, 30);
    /**
     * Cleanup's DefinitionSubstitutions key for the ARN of the pipeline's executions up to the
     * execution's name (template.yaml: {@code arn:...:execution:<TrainingPipeline's name>:}).
     */
    public static final String PIPELINE_EXECUTION_ARN_PREFIX = "PipelineExecutionArnPrefix";
    /** Longer than the functions' own Timeout (template.yaml, Globals): the function stops first. */
    static final Duration TASK_TIMEOUT = Duration.ofMinutes(5);

    public static List<StateMachineDefinition> stateMachines() {
        return List.of(trainingPipeline(), cleanup());
    }

    public static StateMachineDefinition trainingPipeline() {
        var m = new StateMachineBuilder(
                        "TrainingPipeline",
                        "training-pipeline.asl.json",
                        Duration.ofDays(8),
                        "Trainplane: one distributed PyTorch training run on EKS. Every Task retries transient errors and, on"
                                + " failure, goes through RecordFailure to cleanup; only then does the execution succeed or fail.")
                .taskDefaults(
                        StateMachineBuilder.parameters("runId.$", "$.runId", "spec.$", "$.spec"),
                        RETRIES,
                        TASK_TIMEOUT,
                        Catch.keyed("$.failed", "RecordFailure"));
        m.task("StartRun", START_RUN)
                .comment("Validate the spec, apply defaults, create the run record. The execution name is the runId.")
                .parameters("spec.$", "$", "executionName.$", "$$.Execution.Name", "executionArn.$", "$$.Execution.Id")
                .resultPath("$")
                .next("ClusterMode");
        m.choice("ClusterMode")
                .whenEquals("$.spec.cluster.mode", "create", "CreateCluster")
                .whenEquals("$.spec.cluster.mode", "warm", "ScaleUpWorkers")
                .otherwise("ConnectCluster");
        // A warm cluster: its node group is claimed and asked for its nodes first, which boot while the
        // run connects, binds its volume and prepares the data; WarmWorkers waits for them.
        m.task("ScaleUpWorkers", SCALE_WORKERS)
                .comment("cluster.mode warm: check the cluster and the warm node group, claim it for this run (a"
                        + " second run is refused while one holds it) and scale it to the run's nodes.")
                .moreParameters(ScaleWorkersStep.WAIT_FOR, ScaleWorkersStep.ASKED)
                .resultPath("$.warmWorkers")
                .next("ConnectCluster");
        // A created cluster: what does not depend on each other goes out early (the file system beside
        // the control plane, the add-ons and the image pre-pull beside the node groups) and is waited
        // for late; the data set is prepared on the system node group while the workers' nodes come up.
        m.task("CreateCluster", CREATE_CLUSTER)
                .comment("cluster.mode create: an EKS cluster for this run only (about 10 minutes).")
                .resultPath("$.clusterCreation")
                .next("ClusterVolume");
        m.choice("ClusterVolume")
                .whenEquals("$.spec.volume.type", "efs", "CreateVolume")
                .whenEquals("$.spec.volume.type", "fsx-lustre", "CreateVolume")
                .otherwise("CheckCluster");
        m.task("CheckCluster", CHECK_CLUSTER)
                .resultPath("$.clusterStatus")
                .poll("ClusterReady", "WaitForCluster")
                .then("MountTargets");
        m.choice("MountTargets").whenPresent("$.volume", "OpenMountTargets").otherwise("CreateNodegroup");
        m.task("OpenMountTargets", CHECK_VOLUME)
                .comment("One look at the file system: its mount targets are created now, in the cluster's subnets and"
                        + " security group, and are ready by the time the node groups are.")
                .resultPath("$.volumeStatus")
                .next("CreateNodegroup");
        m.task("CreateNodegroup", CREATE_NODEGROUP)
                .resultPath("$.nodegroupCreation")
                .next("ConnectCluster");
        m.task("StartConfiguration", CONFIGURE_CLUSTER)
                .comment("Add-ons, device plugins and the training operator, asked for as soon as the API server"
                        + " answers; ConfigureCluster waits for them once the system nodes run.")
                .resultPath("$." + ConfigureClusterStep.RESULT)
                .next("CheckNodegroup");
        m.task("CheckNodegroup", CHECK_NODEGROUP)
                .comment("Until the system node group is ACTIVE and the workers' is asked for; CheckWorkers waits for"
                        + " the workers' after the data is ready.")
                .moreParameters(CheckNodegroupStep.WAIT_FOR, CheckNodegroupStep.SYSTEM_NODES)
                .resultPath("$.nodegroupStatus")
                .poll("NodegroupReady", "WaitForNodegroup")
                .then("ConfigureCluster");
        m.task("ConfigureCluster", CONFIGURE_CLUSTER)
                .comment("Add-ons (Pod Identity agent, EFS CSI driver), the NVIDIA and EFA device plugins and,"
                        + " for a PyTorchJob, the Kubeflow training operator; called again until all are ready.")
                .resultPath("$." + ConfigureClusterStep.RESULT)
                .poll("ClusterConfigured", "WaitForConfiguration")
                .then("VolumeMode");
        m.task("ConnectCluster", CONNECT_CLUSTER)
                .comment("Reach the cluster's API (an EKS token, no kubeconfig); on an existing cluster, check it has"
                        + " what the run needs before anything is created; create the run's namespace and the"
                        + " image pre-pull.")
                .resultPath("$.cluster")
                .next("ClusterReached");
        m.choice("ClusterReached")
                .whenPresent("$.clusterCreation", "StartConfiguration")
                .otherwise("VolumeMode");
        m.choice("VolumeMode")
                .whenPresent("$.volume", "CheckVolume")
                .whenEquals("$.spec.volume.type", "efs", "CreateVolume")
                .whenEquals("$.spec.volume.type", "fsx-lustre", "CreateVolume")
                .otherwise("StartDataJob");
        m.task("CreateVolume", CREATE_VOLUME)
                .comment("An encrypted EFS file system for the run, or the one volume.fileSystemId adopts; on a created"
                        + " cluster while the control plane is created.")
                .resultPath("$.volume")
                .next("VolumeCreated");
        m.choice("VolumeCreated")
                .whenPresent("$.clusterCreation", "CheckCluster")
                .otherwise("CheckVolume");
        m.task("CheckVolume", CHECK_VOLUME)
                .resultPath("$.volumeStatus")
                .poll("VolumeReady", "WaitForVolume")
                .then("BindVolume");
        m.task("BindVolume", BIND_VOLUME)
                .comment("StorageClass, PersistentVolume and claim: the pods mount the file system at /shared.")
                .resultPath("$.volumeBinding")
                .next("StartDataJob");
        m.task("StartDataJob", START_DATA_JOB)
                .comment("Prepare the data set on the shared volume (download and verify, or"
                        + " generate); skipped when the marker file says it is there.")
                .resultPath("$.dataJob")
                .next("CheckData");
        m.task("CheckData", CHECK_JOB)
                .moreParameters("jobName.$", "$.dataJob.jobName", "purpose", "data")
                .resultPath("$.dataStatus")
                .poll("DataReady", "WaitForData")
                .then("WorkersMode");
        m.choice("WorkersMode")
                .whenPresent("$.clusterCreation", "CheckWorkers")
                .whenPresent("$.warmWorkers", "WarmWorkers")
                .otherwise("StartTraining");
        m.task("WarmWorkers", SCALE_WORKERS)
                .comment("Until the warm node group's nodes are Ready (and advertise their GPUs).")
                .resultPath("$.warmWorkers")
                .poll("WarmWorkersReady", "WaitForWarmWorkers")
                .then("StartTraining");
        m.task("CheckWorkers", CHECK_NODEGROUP)
                .comment("Until the workers' node group is ACTIVE: its nodes have been pulling the training image since"
                        + " they became Ready.")
                .moreParameters(CheckNodegroupStep.WAIT_FOR, CheckNodegroupStep.ALL_NODES)
                .resultPath("$.nodegroupStatus")
                .poll("WorkersReady", "WaitForWorkers")
                .then("StartTraining");
        m.task("StartTraining", START_TRAINING).resultPath("$.training").next("CheckTraining");
        m.task("CheckTraining", CHECK_TRAINING)
                .comment("Until the training is done, or stopped once the run's cost reached its budgetUsd.")
                .resultPath("$.trainingStatus")
                .poll("TrainingDone", "WaitForTraining")
                .then("TrainingOutcome");
        m.choice("TrainingOutcome")
                .whenPresent("$.trainingStatus." + TrainingBudget.BUDGET_REACHED, "ReleaseWorkers")
                .otherwise("StartEvaluation");
        m.task("StartEvaluation", START_EVALUATION).resultPath("$.evaluation").next("CheckEvaluation");
        m.task("CheckEvaluation", CHECK_JOB)
                .moreParameters("jobName.$", "$.evaluation.jobName", "purpose", "evaluation")
                .resultPath("$.evaluationStatus")
                .poll("EvaluationDone", "WaitForEvaluation")
                .then("ReleaseWorkers");
        m.task("ReleaseWorkers", TEARDOWN)
                .comment("Nothing needs the workers' nodes any more: their node group is deleted (a warm one scaled to"
                        + " zero) now, while the outputs are copied from the system node group, not at cleanup.")
                .parameters("runId.$", "$$.Execution.Name", TeardownStep.SCOPE, TeardownStep.WORKERS)
                .resultPath("$.released")
                .next("StartOutputs");
        m.task("StartOutputs", START_OUTPUTS)
                .comment("A Job running as the run's pod identity copies the model, the metrics and the newest verified"
                        + " checkpoint to output.s3Uri; cleanup never deletes them.")
                .resultPath("$.outputs")
                .next("CheckOutputs");
        m.task("CheckOutputs", CHECK_JOB)
                .moreParameters("jobName.$", "$.outputs.jobName", "purpose", "outputs")
                .resultPath("$.outputsStatus")
                .poll("OutputsCopied", "WaitForOutputs")
                .then("CollectResults");
        m.task("CollectResults", COLLECT_RESULTS)
                .comment("Metrics and the model's S3 URI and SHA-256 into the run record; below evaluation.minAccuracy"
                        + " the run fails (after cleanup).")
                .resultPath("$.results")
                .next("Teardown");

        // Failure and cleanup: the states from here on know the run by the execution's name.
        m.task("RecordFailure", RECORD_FAILURE)
                .comment("Every Catch lands here with the failed state's name as the key"
                        + " under $.failed; cleanup follows.")
                .parameters("runId.$", "$$.Execution.Name", "failed.$", "$.failed")
                .resultPath("$.failure")
                .catching(Catch.at("$.recordFailureFailed", "Teardown"))
                .next("Teardown");
        m.task("Teardown", TEARDOWN)
                .comment("Delete what the run created, in dependency order, honouring the spec's keep"
                        + " flags. If it fails, CheckTeardown deletes again; the failure still fails the run.")
                .parameters("runId.$", "$$.Execution.Name")
                .resultPath("$.teardown")
                .catching(Catch.keyed("$.cleanupFailed", "WaitForTeardown"))
                .next("TeardownDone");
        m.choice("TeardownDone").whenTrue("$.teardown.done", "FinishRun").otherwise("WaitForTeardown");
        m.waitSeconds("WaitForTeardown", 30, "CheckTeardown");
        m.task("CheckTeardown", TEARDOWN)
                .comment("Deletes again what is left and reports it. If it fails, RetryTeardown"
                        + " makes one more pass; cleanup itself gives up after 90 minutes.")
                .parameters("runId.$", "$$.Execution.Name")
                .resultPath("$.teardown")
                .catching(Catch.keyed("$.cleanupFailed", "WaitToRetryTeardown"))
                .next("TeardownDone");
        m.waitSeconds("WaitToRetryTeardown", 60, "RetryTeardown");
        m.task("RetryTeardown", TEARDOWN)
                .parameters("runId.$", "$$.Execution.Name")
                .resultPath("$.teardown")
                .catching(Catch.keyed("$.cleanupFailed", "FinishRun"))
                .next("TeardownDone");
        m.task("FinishRun", FINISH_RUN)
                .comment("Final status and the Run Succeeded / Run Failed event.")
                .parameters("runId.$", "$$.Execution.Name", "state.$", "$")
                .resultPath("$.outcome")
                .catching(Catch.keyed("$.finishFailed", "RecordFinishFailure"))
                .next("RunOutcome");
        m.choice("RunOutcome")
                .whenEquals("$.outcome.status", "SUCCEEDED", "RunSucceeded")
                .otherwise("RunFailed");
        m.succeed("RunSucceeded");
        m.failWith("RunFailed", "$.outcome.error", "$.outcome.cause");
        m.task("RecordFinishFailure", RECORD_FAILURE)
                .comment("FinishRun failed after its retries: mark the run FAILED so it does not look alive.")
                .parameters("runId.$", "$$.Execution.Name", "failed.$", "$.finishFailed", "final", true)
                .resultPath("$.outcome")
                .catching(Catch.at("$.recordFinishFailed", "FinishFailed"))
                .next("FinishFailed");
        m.fail(
                "FinishFailed",
                "FinishRunFailed",
                "the run's final status could not be written by FinishRun; see the run"
                        + " record and this execution's history");
        return m.build();
    }

    /** The safety net's machine: SafetyNet starts it for a pipeline execution that ended without its cleanup. */
    public static StateMachineDefinition cleanup() {
        var m = new StateMachineBuilder(
                        "Cleanup",
                        "cleanup.asl.json",
                        Duration.ofHours(2),
                        "Trainplane safety net: cleans up after a TrainingPipeline execution that ended without its own cleanup"
                                + " (stopped, timed out, or failed before cleanup finished). Input {runId, reason}; execution name"
                                + " cleanup-<runId>. Only once the run's pipeline execution has ended (CheckPipeline): Teardown until nothing is"
                                + " left, then CloseRun ends the run record.")
                .taskDefaults(StateMachineBuilder.parameters("runId.$", "$.runId"), RETRIES, TASK_TIMEOUT, null);
        // Anyone who may start Cleanup could otherwise tear down a run that is still going: Cleanup
        // goes on only once the run's pipeline execution has ended (stopped, by `trainplane cancel`
        // or the janitor, included) or no longer exists (Step Functions keeps it 90 days).
        m.serviceCall(
                "CheckPipeline",
                "Ask Step Functions how the run's TrainingPipeline execution (its name is the runId) stands.",
                "sfn",
                "describeExecution",
                StateMachineBuilder.parameters(
                        "ExecutionArn.$", "States.Format('${" + PIPELINE_EXECUTION_ARN_PREFIX + "}{}', $.runId)"),
                StateMachineBuilder.parameters("status.$", "$.Status"),
                "$.pipeline",
                List.of(SDK_ERRORS),
                List.of("Sfn.ExecutionDoesNotExistException"),
                "Teardown",
                "PipelineEnded");
        m.choice("PipelineEnded")
                .whenEquals("$.pipeline.status", "RUNNING", "PipelineRunning")
                .otherwise("Teardown");
        m.fail(
                "PipelineRunning",
                "RunStillRunning",
                "the run's TrainingPipeline execution is still running, and Cleanup tears down only a run that has"
                        + " ended: stop it (trainplane cancel RUN --stack STACK) and the safety net cleans up");
        m.task("Teardown", TEARDOWN)
                .comment("Delete what the run created, in dependency order, honouring the spec's keep"
                        + " flags; the same function as the pipeline's cleanup. It gives up (CleanupFailed, CleanupTimedOut)"
                        + " by itself.")
                .resultPath("$.teardown")
                .catching(Catch.keyed("$.cleanupFailed", "CloseRun"))
                .poll("TeardownDone", "WaitForTeardown", 30)
                .then("CloseRun");
        m.task("CloseRun", CLOSE_RUN)
                .comment("End the run record: CANCELLED when the pipeline was stopped and cleanup"
                        + " finished, FAILED otherwise; event Run Failed.")
                .moreParameters("reason.$", "$.reason", "state.$", "$")
                .resultPath("$.outcome")
                .next("Closed");
        m.choice("Closed").whenPresent("$.cleanupFailed", "CleanupFailed").otherwise("CleanedUp");
        m.succeed("CleanedUp");
        m.fail(
                "CleanupFailed",
                "CleanupFailed",
                "cleanup could not delete everything the run created; the run record" + " lists what is left");
        return m.build();
    }

    private static FunctionDeployment deploy(String description, Role role) {
        return FunctionDeployment.of(description, role);
    }

    private static LambdaFunction aws(String name, FunctionDeployment deployment, Priming... priming) {
        return new LambdaFunction(
                name, clients -> step(name, clients), deployment, LambdaArtifact.AWS, Set.of(priming));
    }

    /** A function whose step works in a cluster's Kubernetes API. */
    private static LambdaFunction kubernetes(String name, String description) {
        return new LambdaFunction(
                name,
                clients -> step(name, clients),
                FunctionDeployment.of(description, CLUSTER_WORK),
                LambdaArtifact.KUBERNETES,
                Set.of(KUBERNETES_ACCESS));
    }
}
