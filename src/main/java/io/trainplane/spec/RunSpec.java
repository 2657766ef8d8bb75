package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A validated run spec with every default applied (DESIGN §5). Build one with
 * {@link RunSpecs#parse(String)}; {@link #toJson()} gives back its normalized form, the one that is
 * stored and hashed, and {@code RunSpecs.parse(spec.toJson().toString())} equals {@code spec}.
 *
 * {@code training.image} is the image the workload runs in, whether the spec gave it there or
 * as {@code workload.image}; the normalized spec leaves {@code workload} out when it is {@link
 * WorkloadSpec#BUILTIN} (so a spec without one normalizes, and hashes, as before the section existed).
 *
 * <p>{@code runId} is null when the spec did not name the run; the caller then supplies one
 * (the execution name) with {@link #withRunId(String)}.
 */
public record RunSpec(
        String runId,
        ClusterSpec cluster,
        VolumeSpec volume,
        DataSpec data,
        TrainingSpec training,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = WorkloadSpec.BuiltinFilter.class)
                WorkloadSpec workload,
        EvaluationSpec evaluation,
        OutputSpec output,
        CleanupSpec cleanup,
        int maxRunHours,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double budgetUsd) {
    public RunSpec {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(volume, "volume");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(training, "training");
        workload = workload == null ? WorkloadSpec.BUILTIN : workload;
        Objects.requireNonNull(evaluation, "evaluation");
        Objects.requireNonNull(cleanup, "cleanup");
        output = output == null ? OutputSpec.UNRESOLVED : output;
    }

    /**
     * This spec with its run named {@code runId}.
     *
     * @throws InvalidSpecException when {@code runId} is not a valid run id (pointer {@code /runId})
     */
    public RunSpec withRunId(String runId) {
        if (!Names.isValidRunId(runId)) {
            throw new InvalidSpecException(new SpecProblem(
                    "/runId",
                    "\"" + runId + "\" cannot name a run: it must be " + Names.RUN_ID_MEANING,
                    "set \"runId\" in the spec, or start the execution with such a name"));
        }
        return new RunSpec(
                runId, cluster, volume, data, training, workload, evaluation, output, cleanup, maxRunHours, budgetUsd);
    }

    /** This spec with its outputs going to {@code output} (StartRun resolves the default). */
    public RunSpec withOutput(OutputSpec output) {
        return new RunSpec(
                runId, cluster, volume, data, training, workload, evaluation, output, cleanup, maxRunHours, budgetUsd);
    }

    /** The names of everything the run creates; requires a runId. */
    public Names names() {
        if (runId == null) {
            throw new IllegalStateException("the run has no id yet: call withRunId first");
        }
        return new Names(runId);
    }

    /** The normalized spec: every field present, defaults applied, fields in schema order. */
    public ObjectNode toJson() {
        return SpecRecords.toJson(this);
    }
}
