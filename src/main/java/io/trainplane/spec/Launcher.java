package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonValue;

/** How the distributed training job is run on the cluster (DESIGN §6). */
public enum Launcher {
    INDEXED_JOB("indexed-job"),
    PYTORCHJOB("pytorchjob"),
    MPIJOB("mpijob");

    private final String json;

    Launcher(String json) {
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
