package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Where the workload's code comes from ({@code workload.code}). A local directory the CLI packs and
 * an {@code s3://} prefix are routes of a later version (issue 17).
 */
public enum WorkloadCode {
    /** The built-in CIFAR-10 scripts from the jar, mounted at /workload from the run's ConfigMap. */
    BUILTIN("builtin"),
    /** The image already contains the code; the spec's commands run it. */
    IMAGE("image");

    private final String json;

    WorkloadCode(String json) {
        this.json = json;
    }

    /** The spelling in the run spec. */
    @JsonValue
    public String json() {
        return json;
    }

    @Override
    public String toString() {
        return json;
    }
}
