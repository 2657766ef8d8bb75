package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.DataSpec;
import java.time.Clock;
import java.util.Optional;

/**
 * Looks once at one of the run's plain Jobs (data, evaluation, outputs), named by {@code jobName}.
 * The look that finds the evaluation done keeps its report in the run record ({@link EvaluationReport}).
 */
public final class CheckJobStep implements KubernetesStep {
    /** prepare.py's exit code when the archive does not match data.sha256 (docs/workload-contract.md). */
    static final int CHECKSUM_MISMATCH = 3;

    private final RunStore store;
    private final ClusterAccess clusters;
    private final Clock clock;

    public CheckJobStep(RunStore store, ClusterAccess clusters, Clock clock) {
        this.store = store;
        this.clusters = clusters;
        this.clock = clock;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        String jobName = Json.text(input, "jobName");
        String what = input.path("purpose").asText("job");
        RunObjects objects = new RunObjects(clusters.connect(run.clusterName()), run.runId());
        if (what.equals("data")) {
            JobPods pods = new JobPods(objects.client(), objects.namespace(), jobName);
            return JobWatch.look(objects, jobName, what, clock.instant(), code -> pods.failedInitContainer(
                            WorkloadManifests.FETCH_CODE)
                    .map(fetch -> codeFailure(
                            fetch.getExitCode(),
                            run.spec().workload().code().json(),
                            Optional.ofNullable(fetch.getMessage())))
                    .or(() -> pods.failedInitContainer(WorkloadManifests.FETCH_CHECKPOINT)
                            .map(fetch -> checkpointFailure(
                                    fetch.getExitCode(),
                                    run.spec().training().resumeFrom(),
                                    Optional.ofNullable(fetch.getMessage())))
                            .or(() -> dataFailure(code, run.spec().data()))));
        }
        if (what.equals("outputs")) {
            return JobWatch.look(
                    objects,
                    jobName,
                    what,
                    clock.instant(),
                    code -> Optional.of(outputsFailure(
                            code,
                            run.spec().output().s3Uri(),
                            new JobPods(objects.client(), objects.namespace(), jobName).failureTail())));
        }
        ObjectNode look = JobWatch.look(objects, jobName, what, clock.instant());
        if (what.equals("evaluation") && look.path("done").asBoolean()) {
            EvaluationReport.read(new JobPods(objects.client(), objects.namespace(), jobName))
                    .ifPresent(report ->
                            store.update(run.runId(), r -> r.withResource(RunResources.EVALUATION_REPORT, report)));
        }
        return look;
    }

    /** What the AWS CLI said when the copy failed, first: the reason is in its one line (credentials, AccessDenied). */
    static TerminalException outputsFailure(int exitCode, String s3Uri, Optional<String> said) {
        String message = said.map(String::strip).orElse("(no message)");
        String hint = message.contains("Unable to locate credentials")
                ? "; the pod runs as ServiceAccount trainplane-run, which needs its EKS Pod Identity association"
                        + " (ConnectCluster creates it) and the Pod Identity agent add-on on the cluster"
                : message.contains("AccessDenied")
                        ? "; RunOutputsRole (template.yaml) may write only to the artifacts bucket under runs/"
                        : "";
        return new TerminalException(
                FailureReason.OutputsFailed,
                "copying the outputs to " + s3Uri + " failed (aws exited " + exitCode + "): " + message + hint);
    }

    /**
     * The first pod's copy of the code (fetch-code: the artifacts bucket's or workload.code's
     * s3:// prefix) failed: what the AWS CLI or the script said (an empty prefix, or files that are
     * not the uploaded package), and what to do about it.
     */
    static TerminalException codeFailure(int exitCode, String code, Optional<String> said) {
        String message = said.map(String::strip).filter(m -> !m.isEmpty()).orElse("(no message)");
        if (exitCode == WorkloadManifests.CODE_MISMATCH) {
            return new TerminalException(
                    FailureReason.CodeDigestMismatch,
                    "the code fetch-code copied is not the package uploaded for this run (" + message
                            + "): something changed the objects under that prefix after the upload; start the run"
                            + " again, which uploads the package again");
        }
        String hint = message.contains("Unable to locate credentials")
                ? "; the pods run as ServiceAccount trainplane-run, which needs its EKS Pod Identity association"
                : message.contains("AccessDenied") || message.contains("Forbidden")
                        ? "; RunOutputsRole (template.yaml) lets the run's pods read only their own run's prefix and"
                                + " the artifacts bucket's " + io.trainplane.spec.OutputSpec.SHARED_INPUTS_PREFIX
                                + ": put the code there, or let the role read your bucket"
                        : message.contains("no code under")
                                ? "; upload your code under that prefix (aws s3 sync DIR PREFIX), or give the prefix"
                                        + " that holds it"
                                : "";
        return new TerminalException(
                FailureReason.CodeFetchFailed,
                "copying the code of workload.code \"" + code + "\" into /workload failed (exit " + exitCode + "): "
                        + message + hint);
    }

    /**
     * The data pod's fetch of training.resumeFrom failed: what the AWS CLI said (a missing object, no
     * credentials, AccessDenied) or the digest that did not match, and what to do about it.
     */
    static TerminalException checkpointFailure(int exitCode, String uri, Optional<String> said) {
        String message = said.map(String::strip).filter(m -> !m.isEmpty()).orElse("(no message)");
        if (exitCode == WorkloadManifests.CHECKPOINT_MISMATCH) {
            return new TerminalException(
                    FailureReason.CheckpointChecksumMismatch,
                    "the checkpoint " + uri + " does not match its .sha256 (" + message
                            + "); resume from another checkpoint, or copy this one and its .sha256 again");
        }
        String hint = message.contains("Unable to locate credentials")
                ? "; the data pod runs as ServiceAccount trainplane-run, which needs its EKS Pod Identity association"
                        + " (ConnectCluster creates it) and the Pod Identity agent add-on on the cluster"
                : message.contains("AccessDenied")
                        ? "; RunOutputsRole (template.yaml) lets the run's pods read only their own run's prefix,"
                                + " where StartRun copied the checkpoint"
                        : message.contains("404") || message.contains("NoSuchKey") || message.contains("does not exist")
                                ? "; training.resumeFrom must name a checkpoint with its .sha256 beside it"
                                : "";
        return new TerminalException(
                FailureReason.CheckpointFetchFailed,
                "fetching the checkpoint " + uri + " (training.resumeFrom) failed (aws exited " + exitCode + "): "
                        + message + hint);
    }

    private static Optional<TerminalException> dataFailure(int exitCode, DataSpec data) {
        if (exitCode != CHECKSUM_MISMATCH) {
            return Optional.empty();
        }
        String from =
                switch (data.source()) {
                    case URL -> data.url();
                    case S3 -> data.s3Uri();
                    case SYNTHETIC -> "the data source";
                };
        return Optional.of(new TerminalException(
                FailureReason.DataChecksumMismatch,
                "the archive downloaded from " + from
                        + " does not match data.sha256 " + (data.sha256() == null ? "" : data.sha256() + " ")
                        + "(prepare.py exited " + exitCode + "); check the address and the checksum"));
    }
}
