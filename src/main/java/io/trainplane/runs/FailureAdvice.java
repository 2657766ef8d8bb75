package io.trainplane.runs;

import java.util.Map;
import java.util.Optional;

/**
 * What to do after a run failed, by the failure's name, for the failures whose message says what
 * happened but not what to do next (a missing cluster names itself; a quality gate cannot know
 * whether the model or the bar is wrong). {@code status}, {@code run} and {@code watch} print it
 * as "what to do". Failures whose message already carries its fix (ImagePullFailed,
 * ClusterPrerequisitesMissing, AccessDeniedException, …) have no entry.
 */
public final class FailureAdvice {
    private FailureAdvice() {}

    private static final String LOGS = "read the pod's log (trainplane logs RUN), fix the script or the spec, and start"
            + " the run again under a new runId";

    private static final Map<String, String> ADVICE = Map.ofEntries(
            Map.entry(
                    "QualityGate",
                    "the model was trained and evaluated but is kept out of use: train longer or tune it (your own code:"
                            + " workload.hyperparameters, e.g. epochs and lr; the built-in scripts: training.epochs,"
                            + " training.learningRate, training.batchSize), or move the gate's bound (evaluation.minAccuracy,"
                            + " or evaluation.min/max of evaluation.metric) if the bar is wrong; training.resumeFrom RUN continues from this run's checkpoints in"
                            + " output.s3Uri"),
            Map.entry("TrainingFailed", LOGS),
            Map.entry(
                    "SecretFetchFailed",
                    "a secret of workload.commands.*.env could not be read in the pod: store it in Secrets Manager (or"
                            + " SSM) under the stack's RunSecretsPrefix (default trainplane/), in the stack's Region and"
                            + " account, check the reference, and start the run again"),
            Map.entry("DataFailed", LOGS),
            Map.entry("EvaluationFailed", LOGS),
            Map.entry(
                    "TooManyInterruptions",
                    "the nodes were taken back more often than training.maxInterruptions allows: raise it, or use"
                            + " cluster.nodeGroup.capacityType ON_DEMAND (or more instanceTypes for Spot); "
                            + "training.resumeFrom RUN continues from the checkpoints already saved"),
            Map.entry(
                    "NoMetrics",
                    "the evaluation must report its metrics, the gate's evaluation.metric (default accuracy) among them"
                            + " (docs/workload-contract.md):"
                            + " fix evaluate.py and start again"),
            Map.entry(
                    "BadMetrics",
                    "the evaluation must report a JSON object of numbers with the gate's evaluation.metric (default"
                            + " accuracy) among them (docs/workload-contract.md):"
                            + " fix evaluate.py and start again"),
            Map.entry(
                    "NoOutputs",
                    "read the outputs Job's log (trainplane logs RUN); the training's checkpoints"
                            + " are in output.s3Uri"),
            Map.entry(
                    "BadOutputs",
                    "read the outputs Job's log (trainplane logs RUN); the training's checkpoints"
                            + " are in output.s3Uri"),
            Map.entry(
                    "ClusterNotFound",
                    "check cluster.name and the region the stack is deployed in, or use cluster.mode create"),
            Map.entry(
                    "ClusterNotActive",
                    "wait until the cluster is ACTIVE (aws eks describe-cluster --name NAME) and start the run again"),
            Map.entry(
                    "FileSystemNotFound",
                    "the file system was deleted outside the run: give volume.fileSystemId of one that exists, or"
                            + " leave it out and the run creates its own"),
            Map.entry(
                    "ResourceFailed",
                    "AWS could not create it (the cause above is AWS's own words): fix what it names, or retry in"
                            + " another Availability Zone or with another instance type"),
            Map.entry(
                    "ResourceDeleted",
                    "something outside the run deleted what the run was waiting for: find out who (CloudTrail), then"
                            + " start again"),
            Map.entry(
                    "JobDeleted",
                    "a Job of the run was deleted from the cluster while it ran (kubectl delete?): start the run again"),
            Map.entry("RunConflict", "a run with this runId exists: give the spec another runId"),
            Map.entry(
                    "InstanceCatalogRefused",
                    "StartRun may not ask EC2 (DescribeInstanceTypes, Spot prices, Capacity Block offerings) or the"
                            + " Price List about the run's instance types: deploy the stack again (sam deploy), whose"
                            + " StartRunRole allows it"),
            Map.entry(
                    "ExecutionAborted",
                    "the run was stopped (cancel, Ctrl-C or the console) and cleaned up: start it again under a new"
                            + " runId when you want it"),
            Map.entry(
                    "ExecutionTimedOut",
                    "the run reached maxRunHours and was cleaned up: raise maxRunHours, or train for fewer epochs"
                            + " (training.resumeFrom RUN continues from its checkpoints)"),
            Map.entry(
                    "ExecutionFailed",
                    "the state machine failed before its own cleanup ended: trainplane status RUN shows what the"
                            + " safety net deleted; report the failed state if it was not your spec"),
            Map.entry(
                    "BudgetReached",
                    "the run's cost reached its budget: start a run with training.resumeFrom RUN to go on from its"
                            + " checkpoint, with a larger budgetUsd (trainplane plan prices the epochs left)"),
            Map.entry(
                    "Orphaned",
                    "the run left resources behind and the janitor deleted them: trainplane status RUN lists them"));

    /** What to do after a failure named {@code error}, if its message does not say. */
    public static Optional<String> of(String error) {
        return error == null ? Optional.empty() : Optional.ofNullable(ADVICE.get(error));
    }

    /** Every failure name that has advice (for tests that each is one the pipeline can raise). */
    public static java.util.Set<String> errors() {
        return ADVICE.keySet();
    }
}
