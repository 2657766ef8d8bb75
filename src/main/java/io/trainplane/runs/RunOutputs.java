package io.trainplane.runs;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where the run's outputs are in S3, as the outputs Job reported them: the prefix they were copied
 * under ({@code s3Uri}, the spec's output.s3Uri), the model's URI and its SHA-256 (hex), and the
 * checkpoint copied with it (its file name and SHA-256, null when none was verified: a run that
 * resumes from this one checks its copy against that digest, not against a file in S3). The model
 * is null for a run its budget stopped before the training wrote one. Kept: cleanup never deletes
 * them.
 */
public record RunOutputs(
        String s3Uri, String modelUri, String modelSha256, String checkpoint, String checkpointSha256) {
    private static final Pattern SHA256 = Pattern.compile("^[0-9a-f]{64}$");

    public RunOutputs {
        Objects.requireNonNull(s3Uri, "s3Uri");
        modelUri = modelUri == null || modelUri.isEmpty() ? null : modelUri;
        if (modelUri != null) {
            Objects.requireNonNull(modelSha256, "modelSha256");
            if (!SHA256.matcher(modelSha256).matches()) {
                throw new IllegalArgumentException("modelSha256 is not a SHA-256 in hex: " + modelSha256);
            }
            if (!modelUri.startsWith(s3Uri)) {
                throw new IllegalArgumentException("the model " + modelUri + " is not under " + s3Uri);
            }
        } else {
            modelSha256 = null;
        }
        checkpoint = checkpoint == null || checkpoint.isEmpty() ? null : checkpoint;
        checkpointSha256 =
                checkpoint == null || checkpointSha256 == null || checkpointSha256.isEmpty() ? null : checkpointSha256;
        if (checkpointSha256 != null && !SHA256.matcher(checkpointSha256).matches()) {
            throw new IllegalArgumentException("checkpointSha256 is not a SHA-256 in hex: " + checkpointSha256);
        }
    }
}
