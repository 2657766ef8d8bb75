package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonValue;

/** How the nodes of a created node group are bought. */
public enum CapacityType {
    ON_DEMAND("ON_DEMAND"),
    SPOT("SPOT"),
    CAPACITY_BLOCK("CAPACITY_BLOCK");

    private final String json;

    CapacityType(String json) {
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
