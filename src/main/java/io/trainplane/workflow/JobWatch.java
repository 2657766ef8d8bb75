package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.JobState;
import io.trainplane.kubernetes.PodDiagnosis;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.SecretFetch;
import io.trainplane.kubernetes.UserTraceback;
import io.trainplane.runs.RunError;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Looks once at a Job of the run: done, not yet (with how long to wait), or a terminal failure,
 * named after what its pods show (PodsForbidden, Unschedulable, FailedMount, ImagePullFailed, NodeDiskFull, CrashLoop,
 * RendezvousUnresolved) when they show it.
 */
final class JobWatch {
    /** Environment variable: minutes a pod may stay unscheduled before the run fails (default 15). */
    static final String PENDING_TIMEOUT = "PENDING_TIMEOUT_MINUTES";

    private JobWatch() {}

    static ObjectNode look(RunObjects objects, String jobName, String what, Instant now) {
        return look(objects, jobName, what, now, code -> Optional.empty());
    }

    /** @param exitCodes what a failed pod's exit code means for this job, when it means something */
    static ObjectNode look(
            RunObjects objects,
            String jobName,
            String what,
            Instant now,
            IntFunction<Optional<TerminalException>> exitCodes) {
        Job job = objects.job(jobName);
        JobState state = JobState.of(job);
        if (state instanceof JobState.Succeeded) {
            return JobPolling.done();
        }
        if (state instanceof JobState.Missing) {
            throw deleted(objects, "Job", jobName, what);
        }
        JobPods pods = new JobPods(objects.client(), objects.namespace(), jobName);
        if (state instanceof JobState.Failed) {
            pods.failedExitCode().flatMap(exitCodes::apply).ifPresent(e -> {
                throw e;
            });
        }
        diagnose(pods, what, jobName, now, state instanceof JobState.Failed);
        return switch (state) {
            case JobState.Failed f ->
                throw failed(
                        failure(what),
                        "the " + what + " Job " + jobName + " failed (" + f.reason() + ": " + f.message() + ")",
                        pods);
            default -> JobPolling.notDone(job, now);
        };
    }

    /**
     * A failed workload, the user's own exception first when its log shows one ({@link
     * UserTraceback}), then what Kubernetes said; the log tail after {@link FailureReport#TAIL_MARKER},
     * led by that traceback when the tail does not hold it.
     */
    static TerminalException failed(FailureReason error, String what, JobPods pods) {
        Optional<UserTraceback> raised = pods.userTraceback();
        Optional<String> tail = pods.failureTail();
        Optional<String> lines = raised.map(t -> tail.filter(l -> l.contains(t.text()))
                        .orElse(t.text()
                                + tail.map(l -> "\n…\n"
                                                + end(
                                                        l,
                                                        RunError.MAX_LOG_TAIL
                                                                - t.text().length()
                                                                - 3))
                                        .orElse("")))
                .or(() -> tail);
        return new TerminalException(
                error,
                raised.map(t -> t.summary() + " — ").orElse("")
                        + what
                        + lines.map(l -> FailureReport.TAIL_MARKER + l).orElse(""));
    }

    /** The last {@code chars} of {@code text}: the record keeps a log tail's end, and the traceback before it. */
    private static String end(String text, int chars) {
        return text.substring(Math.max(0, text.length() - Math.max(0, chars)));
    }

    static TerminalException deleted(RunObjects objects, String kind, String jobName, String what) {
        return new TerminalException(
                FailureReason.JobDeleted,
                "the " + what + " " + kind + " " + objects.namespace() + "/" + jobName
                        + " was deleted while the run was waiting for it");
    }

    /** Throws the diagnosis of the job's pods, if they show one; the crash's log tail included. */
    static void diagnose(JobPods pods, String what, String jobName, Instant now, boolean failed) {
        // A secret that cannot be read will not be readable on the next try either.
        pods.failedInitContainer(SecretFetch.CONTAINER).ifPresent(fetch -> {
            throw secretFailure(what, jobName, fetch.getExitCode(), fetch.getMessage());
        });
        Optional<PodDiagnosis.Diagnosis> found =
                PodDiagnosis.of(pods.list(), pods.events(), now, pendingTimeout(), failed, pods::logTail);
        if (found.isEmpty()) {
            return;
        }
        PodDiagnosis.Diagnosis d = found.get();
        throw new TerminalException(d.reason(), "the " + what + " job " + jobName + ": " + d.message());
    }

    /**
     * A pod's {@value SecretFetch#CONTAINER} could not read a secret by reference: the variable, the
     * reference and what AWS said (never a value), and what to do.
     */
    static TerminalException secretFailure(String what, String jobName, Integer exitCode, String said) {
        String message = said == null || said.isBlank() ? "(no message)" : said.strip();
        String hint = message.contains("AccessDenied")
                ? "; the run's pods (RunOutputsRole) may read only the secrets and SSM parameters of the stack's"
                        + " Region and account named under its RunSecretsPrefix, and no secret encrypted with a"
                        + " customer managed KMS key"
                : message.contains("ResourceNotFound") || message.contains("ParameterNotFound")
                        ? "; create it, or correct the reference in workload.commands.*.env"
                        : message.contains("Unable to locate credentials")
                                ? "; the pod runs as ServiceAccount trainplane-run, which needs its EKS Pod Identity"
                                        + " association (ConnectCluster creates it)"
                                : "";
        return new TerminalException(
                FailureReason.SecretFetchFailed,
                "the " + what + " job " + jobName + " could not read a secret of its command (" + SecretFetch.CONTAINER
                        + " exited " + exitCode + "): " + message + hint);
    }

    static Duration pendingTimeout() {
        String minutes = System.getenv(PENDING_TIMEOUT);
        try {
            return Duration.ofMinutes(minutes == null || minutes.isBlank() ? 15 : Long.parseLong(minutes.trim()));
        } catch (NumberFormatException e) {
            return Duration.ofMinutes(15);
        }
    }

    /** Why a run fails when its {@code what} job (CheckJob's purpose, or the training) failed. */
    static FailureReason failure(String what) {
        return switch (what) {
            case "data" -> FailureReason.DataFailed;
            case "training" -> FailureReason.TrainingFailed;
            case "evaluation" -> FailureReason.EvaluationFailed;
            case "outputs" -> FailureReason.OutputsFailed;
            default -> FailureReason.JobFailed;
        };
    }
}
