package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where the run trains: on a cluster that already exists, or on one created for the run. */
public enum ClusterMode {
    EXISTING("existing"),
    CREATE("create");

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
