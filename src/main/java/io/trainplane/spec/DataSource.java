package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where the training data comes from. */
public enum DataSource {
    SYNTHETIC("synthetic"),
    URL("url"),
    S3("s3");

    private final String json;

    DataSource(String json) {
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
