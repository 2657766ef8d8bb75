package io.trainplane.workflow;

import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.CodeRoute;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.CodeDirectory;
import io.trainplane.spec.CodePackage;
import io.trainplane.spec.RunSpec;

/** The run's manifests with its packed code when the ConfigMap route carries it (kept beside the run's record by the CLI). */
final class RunCode {
    private RunCode() {}

    static WorkloadManifests manifests(RunStore store, String runId, RunSpec spec) {
        if (CodeRoute.of(spec.workload()) != CodeRoute.CONFIGMAP) {
            return new WorkloadManifests(spec);
        }
        CodePackage packed = spec.workload().codePackage();
        byte[] archive = store.code(runId, packed.sha256())
                .orElseThrow(() -> new TerminalException(
                        FailureReason.CodeMissing,
                        "the code of workload.code \"" + spec.workload().code() + "\" (SHA-256 " + packed.sha256()
                                + ") is not beside run " + runId + "'s record, where the CLI keeps it before the"
                                + " run starts: start the run with the trainplane CLI (trainplane start or run)"));
        return new WorkloadManifests(spec, CodeDirectory.unarchive(archive));
    }
}
