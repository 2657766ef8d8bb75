package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonValue;

/** What starts the train command in each training pod ({@code workload.launcher}). */
public enum TrainLauncher {
    /** torchrun wraps the command; Trainplane sets its nodes, processes and rendezvous. */
    TORCHRUN("torchrun"),
    /** The command as given, for code that launches its own processes. */
    NONE("none");

    private final String json;

    TrainLauncher(String json) {
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
