package io.trainplane.spec;

import java.util.regex.Pattern;

/**
 * Where the run's outputs (the model, the metrics, the last checkpoint) are copied when the
 * training ends: {@code s3://bucket/prefix/}. Null until StartRun resolves the default, the stack's
 * artifacts bucket under the run's own prefix {@code runs/<namespace>/} ({@link #defaultFor}).
 */
public record OutputSpec(String s3Uri) {
    /**
     * A bucket name as S3 allows it for general purpose buckets: 3 to 63 lowercase letters, digits,
     * dots and hyphens, beginning and ending with a letter or digit
     * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html); then a prefix
     * that ends with a slash, the outputs being named under it.
     */
    static final Pattern S3_URI = Pattern.compile("^s3://([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])/((?:[^/\\s]+/)*)$");

    public static final OutputSpec UNRESOLVED = new OutputSpec(null);

    /**
     * Where in the stack's artifacts bucket runs share code and data: every run's pods may read
     * it, none may write it (template.yaml RunOutputsRole), unlike a run's own prefix.
     */
    public static final String SHARED_INPUTS_PREFIX = "inputs/";

    /** Where the training's checkpoints are synced as they are written, below {@link #s3Uri()}. */
    public static final String CHECKPOINTS_PREFIX = "checkpoints/";

    /** The default: the stack's artifacts bucket, under the run's prefix (all RunOutputsRole lets its pods write: {@link Names#artifactsPrefix}). */
    public static OutputSpec defaultFor(String artifactsBucket, String runId) {
        return new OutputSpec("s3://" + artifactsBucket + "/" + new Names(runId).artifactsPrefix());
    }

    /** The bucket of {@link #s3Uri()}; the URI must be resolved and valid. */
    public String bucket() {
        var m = S3_URI.matcher(s3Uri);
        if (!m.matches()) {
            throw new IllegalStateException("not an output URI: " + s3Uri);
        }
        return m.group(1);
    }

    /** The key prefix of {@link #s3Uri()}, ending with "/" (or empty). */
    public String prefix() {
        var m = S3_URI.matcher(s3Uri);
        if (!m.matches()) {
            throw new IllegalStateException("not an output URI: " + s3Uri);
        }
        return m.group(2);
    }

    /** Whether {@code uri} is a well-formed {@code s3://bucket/prefix/}. */
    public static boolean isValid(String uri) {
        return uri != null && S3_URI.matcher(uri).matches() && !uri.contains("..");
    }
}
