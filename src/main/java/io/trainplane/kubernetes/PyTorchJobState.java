package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;

/**
 * Where a PyTorchJob stands, from the conditions the training operator writes (Created, Running,
 * Restarting, Succeeded, Failed): the last condition whose status is "True" counts. An MPIJob's
 * status has the same fields and conditions, written by the MPI operator (Created, Running,
 * Succeeded or Failed, Suspended; pkg/controller/mpi_job_controller.go, updateMPIJobStatus), and
 * reads the same way.
 */
public sealed interface PyTorchJobState {
    /** Created, Running or Restarting (or nothing written yet). */
    record Active(String condition, String startTime) implements PyTorchJobState {}

    record Succeeded(String startTime, String completionTime) implements PyTorchJobState {}

    record Failed(String reason, String message) implements PyTorchJobState {}

    record Missing() implements PyTorchJobState {}

    static PyTorchJobState of(GenericKubernetesResource job) {
        if (job == null) {
            return new Missing();
        }
        String start = (String) PyTorchJobs.status(job, "startTime");
        Map<?, ?> last = null;
        if (PyTorchJobs.status(job, "conditions") instanceof List<?> conditions) {
            for (Object c : conditions) {
                if (c instanceof Map<?, ?> condition && "True".equals(condition.get("status"))) {
                    last = condition;
                }
            }
        }
        if (last == null) {
            return new Active("Pending", start);
        }
        return switch (String.valueOf(last.get("type"))) {
            case "Succeeded" -> new Succeeded(start, (String) PyTorchJobs.status(job, "completionTime"));
            case "Failed" -> new Failed(String.valueOf(last.get("reason")), String.valueOf(last.get("message")));
            default -> new Active(String.valueOf(last.get("type")), start);
        };
    }
}
