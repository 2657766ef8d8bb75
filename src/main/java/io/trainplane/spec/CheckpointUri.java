package io.trainplane.spec;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A checkpoint in S3 a run starts from ({@code training.resumeFrom}, resolved): {@code
 * s3://bucket/.../checkpoint-epoch-N[-step-M].pt}, its SHA-256 beside it in {@code <key>.sha256}
 * (sha256sum format), as train.py writes them and the outputs Job copies them.
 */
public record CheckpointUri(String bucket, String key, String fileName, int epoch) {
    /** Bucket as {@link OutputSpec} takes it, a key whose last part is train.py's checkpoint name. */
    private static final Pattern URI = Pattern.compile(
            "^s3://([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])/((?:[^/\\s]+/)*(checkpoint-epoch-(\\d{1,9})(?:-step-\\d{1,9})?\\.pt))$");

    /** The checkpoint {@code uri} names; empty when it is no such URI. */
    public static Optional<CheckpointUri> parse(String uri) {
        if (uri == null || uri.contains("..")) {
            return Optional.empty();
        }
        var m = URI.matcher(uri);
        return m.matches()
                ? Optional.of(new CheckpointUri(m.group(1), m.group(2), m.group(3), Integer.parseInt(m.group(4))))
                : Optional.empty();
    }

    /** Whether {@code resumeFrom} names an S3 object rather than a run. */
    public static boolean isUri(String resumeFrom) {
        return resumeFrom != null && resumeFrom.startsWith("s3://");
    }

    public String uri() {
        return "s3://" + bucket + "/" + key;
    }

    /** Where its SHA-256 is. */
    public String digestUri() {
        return uri() + ".sha256";
    }

    /** A checkpoint of epoch N leaves epochs - N to train: the problem when that is none. */
    public Optional<SpecProblem> nothingLeftToTrain(int epochs, boolean epochsDefaulted) {
        if (epoch < epochs) {
            return Optional.empty();
        }
        return Optional.of(new SpecProblem(
                "/training/resumeFrom",
                fileName + " has trained " + epoch + " epochs, training.epochs is " + epochs
                        + (epochsDefaulted ? " (the default)" : "") + ": nothing would be left to train",
                "set training.epochs above " + epoch + " (the total, the checkpoint's epochs included),"
                        + " or resume from an earlier checkpoint"));
    }
}
