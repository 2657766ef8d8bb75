package io.trainplane.workflow;

import io.fabric8.kubernetes.api.model.Pod;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import java.util.Optional;

/**
 * What the evaluation reported: its pod's termination message, or the last {@code METRICS} line
 * of its log. CheckEvaluation keeps it in the run record the moment the Job is done, because the
 * workers' node group goes next (ReleaseWorkers) and the pod with it; CollectResults reads it there.
 */
final class EvaluationReport {
    static final String METRICS_PREFIX = "METRICS ";

    private EvaluationReport() {}

    /** As the record keeps it, else as the evaluation's pods still show it. */
    static Optional<String> of(RunRecord run, JobPods pods) {
        return run.resources().get(RunResources.EVALUATION_REPORT).or(() -> read(pods));
    }

    /** From the evaluation's pods: the termination message of the one that succeeded, else a METRICS log line. */
    static Optional<String> read(JobPods pods) {
        return pods.terminationMessage("Succeeded").or(() -> metricsFromLogs(pods));
    }

    private static Optional<String> metricsFromLogs(JobPods pods) {
        for (Pod pod : pods.list()) {
            Optional<String> line = pods.logTail(pod)
                    .flatMap(log -> log.lines()
                            .filter(l -> l.startsWith(METRICS_PREFIX))
                            .reduce((first, second) -> second))
                    .map(l -> l.substring(METRICS_PREFIX.length()));
            if (line.isPresent()) {
                return line;
            }
        }
        return Optional.empty();
    }
}
