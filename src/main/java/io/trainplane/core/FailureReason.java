package io.trainplane.core;

import java.util.Arrays;
import java.util.Optional;

/**
 * Why a run failed: the closed set of failure names the pipeline raises ({@link
 * TerminalException}) or writes into the run record (the execution's own end, the budget, the
 * janitor). Each constant is spelled as its wire form, the name the Step Functions error, the run
 * record and the events carry ({@code ClusterNotFound}, {@code QualityGate}, …), so {@link #name()}
 * is that form and records written before this type existed read the same.
 *
 * <p>A failure whose message says what happened but not what to do next (a missing cluster names
 * itself; a quality gate cannot know whether the model or the bar is wrong) declares its advice
 * here; {@code status}, {@code run} and {@code watch} print it as "what to do". A failure whose
 * message already carries its fix (ImagePullFailed, AccessDeniedException, …) declares none.
 */
public enum FailureReason {
    AccessDeniedException,
    AlreadyExists,
    AvailabilityZonesMismatch,
    BadMetrics("the evaluation must report a JSON object of numbers with the gate's evaluation.metric (default"
            + " accuracy) among them (docs/workload-contract.md):"
            + " fix evaluate.py and start again"),
    BadOutputs("read the outputs Job's log (trainplane logs RUN); the training's checkpoints" + " are in output.s3Uri"),
    BadRequest,
    BudgetReached("the run's cost reached its budget: start a run with training.resumeFrom RUN to go on from its"
            + " checkpoint, with a larger budgetUsd (trainplane plan prices the epochs left)"),
    CapacityReservationInstanceType,
    CapacityReservationNotActive,
    CapacityReservationNotFound,
    CapacityReservationTooSmall,
    CapacityTypeMismatch,
    CheckpointChecksumMismatch,
    CheckpointFetchFailed,
    CheckpointMismatch,
    CleanupFailed,
    CleanupTimedOut,
    ClientTokenConflict,
    CloudControlRequestNotFound,
    ClusterAccessDenied,
    ClusterNameTaken,
    ClusterNotActive("wait until the cluster is ACTIVE (aws eks describe-cluster --name NAME) and start the run again"),
    ClusterNotFound("check cluster.name and the region the stack is deployed in, or use cluster.mode create"),
    ClusterPrerequisitesMissing,
    CodeDigestMismatch,
    CodeFetchFailed,
    CodeMissing,
    CrashLoop,
    DataChecksumMismatch,
    DataFailed(Texts.LOGS),
    EksInvalidParameter,
    EksQuotaReached,
    EvaluationFailed(Texts.LOGS),
    ExecutionAborted("the run was stopped (cancel, Ctrl-C or the console) and cleaned up: start it again under a new"
            + " runId when you want it"),
    ExecutionFailed("the state machine failed before its own cleanup ended: trainplane status RUN shows what the"
            + " safety net deleted; report the failed state if it was not your spec"),
    ExecutionTimedOut("the run reached maxRunHours and was cleaned up: raise maxRunHours, or train for fewer epochs"
            + " (training.resumeFrom RUN continues from its checkpoints)"),
    FailedMount,
    FileSystemInUse,
    FileSystemLimitExceeded,
    FileSystemNotAdoptable,
    FileSystemNotAvailable,
    FileSystemNotFound("the file system was deleted outside the run: give volume.fileSystemId of one that exists, or"
            + " leave it out and the run creates its own"),
    FileSystemNotLustre,
    FileSystemNotTheRuns,
    GpusNotAdvertised,
    ImagePullFailed,
    IncompatibleParameterError,
    IncorrectMountTargetState,
    InstanceCatalogRefused(
            "StartRun may not ask EC2 (DescribeInstanceTypes, Spot prices, Capacity Block offerings) or the"
                    + " Price List about the run's instance types: deploy the stack again (sam deploy), whose"
                    + " StartRunRole allows it"),
    InvalidExportPath,
    InvalidImportPath,
    InvalidNetworkSettings,
    JobDeleted("a Job of the run was deleted from the cluster while it ran (kubectl delete?): start the run again"),
    JobFailed,
    LaunchTemplateRequired,
    LaunchTemplateUnknown,
    LogGroupNotRequested,
    MountTargetConflict,
    MpiOperatorMissing,
    NameTaken,
    NetworkInterfaceLimitExceeded,
    NoArtifactsBucket,
    NoFreeAddressesInSubnet,
    NoMetrics("the evaluation must report its metrics, the gate's evaluation.metric (default accuracy) among them"
            + " (docs/workload-contract.md):"
            + " fix evaluate.py and start again"),
    NoOutputs("read the outputs Job's log (trainplane logs RUN); the training's checkpoints" + " are in output.s3Uri"),
    NoSubnetInReservationZone,
    NoSubnets,
    NodeDiskFull,
    NodegroupNameTaken,
    Orphaned("the run left resources behind and the janitor deleted them: trainplane status RUN lists them"),
    OutputsFailed,
    PodsForbidden,
    QualityGate("the model was trained and evaluated but is kept out of use: train longer or tune it (your own code:"
            + " workload.hyperparameters, e.g. epochs and lr; the built-in scripts: training.epochs,"
            + " training.learningRate, training.batchSize), or move the gate's bound (evaluation.minAccuracy,"
            + " or evaluation.min/max of evaluation.metric) if the bar is wrong; training.resumeFrom RUN continues from this run's checkpoints in"
            + " output.s3Uri"),
    RendezvousUnresolved,
    ResourceDeleted("something outside the run deleted what the run was waiting for: find out who (CloudTrail), then"
            + " start again"),
    ResourceFailed("AWS could not create it (the cause above is AWS's own words): fix what it names, or retry in"
            + " another Availability Zone or with another instance type"),
    ResourceGone,
    RunConflict("a run with this runId exists: give the spec another runId"),
    RunExpired,
    SecretFetchFailed(
            "a secret of workload.commands.*.env could not be read in the pod: store it in Secrets Manager (or"
                    + " SSM) under the stack's RunSecretsPrefix (default trainplane/), in the stack's Region and"
                    + " account, check the reference, and start the run again"),
    SecurityGroupLimitExceeded,
    SecurityGroupNotFound,
    ServiceLimitExceeded,
    SubnetNotFound,
    TooManyInterruptions("the nodes were taken back more often than training.maxInterruptions allows: raise it, or use"
            + " cluster.nodeGroup.capacityType ON_DEMAND (or more instanceTypes for Spot); "
            + "training.resumeFrom RUN continues from the checkpoints already saved"),
    TrainingFailed(Texts.LOGS),
    TrainingOperatorMissing,
    Unschedulable,
    UnsupportedAvailabilityZone,
    WarmNodegroupBusy,
    WarmNodegroupMinSize,
    WarmNodegroupNotFound,
    WarmNodegroupNotTagged,
    WarmNodegroupTooSmall,
    WarmNodegroupType;

    private final String advice;

    /** A failure whose message carries what to do. */
    FailureReason() {
        this(null);
    }

    FailureReason(String advice) {
        this.advice = advice;
    }

    /** What to do after this failure, if its message does not say. */
    public Optional<String> advice() {
        return Optional.ofNullable(advice);
    }

    /** The failure named {@code error} (the wire form), if it is one of the pipeline's. */
    public static Optional<FailureReason> of(String error) {
        return Arrays.stream(values()).filter(r -> r.name().equals(error)).findFirst();
    }

    /** What to do after a failure named {@code error}, if it is the pipeline's and its message does not say. */
    public static Optional<String> adviceFor(String error) {
        return of(error).flatMap(FailureReason::advice);
    }

    /** Texts several constants share (an enum's static fields are not set yet when its constants are made). */
    private static final class Texts {
        static final String LOGS = "read the pod's log (trainplane logs RUN), fix the script or the spec, and start"
                + " the run again under a new runId";
    }
}
