package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where the run trains: on a cluster that already exists, on one created for the run, or on a warm one. */
public enum ClusterMode {
    EXISTING("existing"),
    CREATE("create"),
    /** A long-lived cluster with a warm node group at zero nodes between runs, scaled for the run. */
    WARM("warm");

    private final String json;

    ClusterMode(String json) {
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
