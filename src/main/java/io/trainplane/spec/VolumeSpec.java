package io.trainplane.spec;

import java.util.Objects;

/**
 * Shared storage of the run. {@code fileSystemId} names an existing EFS file system; null means
 * the run creates one (type {@link VolumeType#EFS}) or uses none.
 */
public record VolumeSpec(VolumeType type, String fileSystemId) {
    public VolumeSpec {
        Objects.requireNonNull(type, "type");
    }
}
