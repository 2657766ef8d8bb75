package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * The training data. Only the fields of the chosen source are set: {@code url} and
 * {@code sha256} for {@link DataSource#URL}, {@code s3Uri} (and optionally {@code sha256}) for
 * {@link DataSource#S3}, {@code syntheticSamples} for {@link DataSource#SYNTHETIC} (0 otherwise).
 */
public record DataSpec(
        DataSource source,
        String url,
        String s3Uri,
        String sha256,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) int syntheticSamples) {
    public DataSpec {
        Objects.requireNonNull(source, "source");
    }
}
