package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonValue;

/** Shared storage mounted on every pod of the run. */
public enum VolumeType {
    NONE("none"),
    EFS("efs"),
    /** An FSx for Lustre file system, optionally linked to S3. */
    FSX_LUSTRE("fsx-lustre");

    private final String json;

    VolumeType(String json) {
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
