package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;

/**
 * How the simulated training operator and MPI operator read their own jobs' status, as the Kubeflow
 * operators do (kubeflow/training-operator, pkg/util/status.go: {@code IsSucceeded}, {@code IsFailed},
 * {@code IsRunning}, {@code IsSuspended}, each {@code isStatusConditionTrue}): a job is in a
 * condition when a condition of that type has status "True"; it is finished when it has succeeded
 * or failed. The twin's own reading, not the product's.
 */
final class OperatorConditions {
    private OperatorConditions() {}

    /** isStatusConditionTrue: some condition of {@code type} has status "True". */
    static boolean isTrue(GenericKubernetesResource job, String type) {
        if (job.getAdditionalProperties().get("status") instanceof Map<?, ?> status
                && status.get("conditions") instanceof List<?> conditions) {
            for (Object c : conditions) {
                if (c instanceof Map<?, ?> condition
                        && type.equals(condition.get("type"))
                        && "True".equals(condition.get("status"))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** IsFinished: succeeded or failed. */
    static boolean finished(GenericKubernetesResource job) {
        return isTrue(job, "Succeeded") || isTrue(job, "Failed");
    }
}
