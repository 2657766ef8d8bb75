package io.trainplane.aws.s3;

import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.spec.CheckpointUri;
import io.trainplane.spec.InvalidSpecException;
import io.trainplane.spec.SpecProblem;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The checkpoint a run resumes from, copied into the run's own prefix before anything of the run
 * exists: its pods may read only that prefix (template.yaml RunOutputsRole), never the run it
 * resumes from. S3 copies server side and computes the copy's SHA-256 (CopyObject with a SHA256
 * checksum, https://docs.aws.amazon.com/AmazonS3/latest/userguide/checking-object-integrity.html),
 * which must be the digest the source run recorded in the Runs table when its outputs Job kept the
 * checkpoint; a checkpoint no run recorded (one the training's sidecar synced) is held to the
 * {@code .sha256} beside it, which only the pods of the run that owns the prefix could write. The
 * copy's own {@code .sha256}, written here from that digest, is what the data pod checks.
 */
public final class ResumeCheckpoints {
    private static final Pattern SHA256 = Pattern.compile("^[0-9a-f]{64}$");
    private static final String POINTER = "/training/resumeFrom";
    /** Under the run's prefix, where the copy goes. */
    public static final String PREFIX = "resume/";

    /** Asked for only when a run resumes: most runs never build the S3 client. */
    private final java.util.function.Supplier<S3Client> client;

    public ResumeCheckpoints(java.util.function.Supplier<S3Client> client) {
        this.client = client;
    }

    /**
     * Copies {@code source} to {@code runPrefix}{@value #PREFIX} in the same bucket, with its
     * {@code .sha256}; the copy's URI. Copying again gives the same copy (StartRun may run twice).
     *
     * @param recordedSha256 the digest the source run recorded, when it recorded one
     * @throws InvalidSpecException when the checkpoint or its .sha256 is missing, or larger than one copy takes
     * @throws TerminalException (CheckpointMismatch) when the bytes are not those the digest names
     */
    public CheckpointUri copy(CheckpointUri source, Optional<String> recordedSha256, String runPrefix) {
        String expected = recordedSha256.orElseGet(() -> digestBeside(source));
        CheckpointUri copy = destination(source, runPrefix);
        String key = copy.key();
        S3Client s3 = client.get();
        String copied;
        try {
            String checksum = s3.copyObject(r -> r.sourceBucket(source.bucket())
                            .sourceKey(source.key())
                            .destinationBucket(source.bucket())
                            .destinationKey(key)
                            .checksumAlgorithm(ChecksumAlgorithm.SHA256))
                    .copyObjectResult()
                    .checksumSHA256();
            copied = checksum == null
                    ? ""
                    : HexFormat.of().formatHex(Base64.getDecoder().decode(checksum));
        } catch (NoSuchKeyException e) {
            throw missing(source.uri());
        } catch (S3Exception e) {
            if (e.statusCode() == 400 && "InvalidRequest".equals(errorCode(e))) {
                throw new InvalidSpecException(List.of(new SpecProblem(
                        POINTER,
                        source.uri() + " cannot be copied in one request: "
                                + e.awsErrorDetails().errorMessage(),
                        "resume from a checkpoint of at most 5 GB")));
            }
            throw e;
        }
        if (!copied.equals(expected)) {
            throw new TerminalException(
                    FailureReason.CheckpointMismatch,
                    "the checkpoint " + source.uri() + " has SHA-256 " + copied + ", but "
                            + (recordedSha256.isPresent() ? "the run that kept it recorded " : "its .sha256 says ")
                            + expected + ": it changed since it was written; resume from another checkpoint");
        }
        s3.putObject(
                r -> r.bucket(source.bucket()).key(key + ".sha256").checksumAlgorithm(ChecksumAlgorithm.SHA256),
                RequestBody.fromString(expected + "  " + source.fileName() + "\n", StandardCharsets.UTF_8));
        return copy;
    }

    /** Where {@link #copy} puts {@code source}: {@code runPrefix}{@value #PREFIX}, in the same bucket. */
    public static CheckpointUri destination(CheckpointUri source, String runPrefix) {
        return CheckpointUri.parse("s3://" + source.bucket() + "/" + runPrefix + PREFIX + source.fileName())
                .orElseThrow();
    }

    /** The digest of the {@code .sha256} beside {@code source}: its first word, 64 hex digits. */
    private String digestBeside(CheckpointUri source) {
        String text;
        try {
            text = client.get()
                    .getObjectAsBytes(r -> r.bucket(source.bucket()).key(source.key() + ".sha256"))
                    .asUtf8String();
        } catch (NoSuchKeyException e) {
            throw missing(source.digestUri());
        }
        String digest = text.strip().split("\\s+")[0];
        if (!SHA256.matcher(digest).matches()) {
            throw new TerminalException(
                    FailureReason.CheckpointMismatch,
                    source.digestUri() + " holds no SHA-256 (64 hex digits), so the checkpoint cannot be checked");
        }
        return digest;
    }

    private static InvalidSpecException missing(String uri) {
        return new InvalidSpecException(List.of(new SpecProblem(
                POINTER,
                uri + " does not exist",
                "give an earlier run's ID (trainplane status shows the checkpoint it kept) or the URI of a checkpoint"
                        + " whose .sha256 is beside it")));
    }

    private static String errorCode(S3Exception e) {
        return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    }
}
