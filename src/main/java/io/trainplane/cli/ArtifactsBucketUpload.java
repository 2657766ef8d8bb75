package io.trainplane.cli;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The bucket route's upload by {@code start --stack}: each packed file to its key under
 * {@code runs/<runId>/code/} of the stack's artifacts bucket, which the run's fetch-code copies
 * whole ({@code aws s3 cp --recursive}). Idempotent: the keys are the runId's and the files'
 * paths, so a rerun of the same start writes the same keys with the same bytes (the same package
 * SHA-256, kept on every object as {@value #SHA256_METADATA} metadata), and removes any other key
 * under the prefix (a file an earlier attempt uploaded that the directory no longer has), since
 * fetch-code would copy it too. Each PutObject carries the file's own SHA-256, which S3 checks
 * before it stores the object
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/checking-object-integrity.html).
 */
final class ArtifactsBucketUpload {
    /** User metadata (x-amz-meta-…) with the package's digest: workload.package.sha256 of the run. */
    static final String SHA256_METADATA = "trainplane-code-sha256";

    /** What the person running start needs on the bucket, as docs/command-line.md says (start). */
    static final String PERMISSIONS =
            "s3:PutObject and s3:DeleteObject on arn:aws:s3:::%s/runs/*, and s3:ListBucket on arn:aws:s3:::%s";

    private final S3Client s3;
    private final String bucket;
    private final String packageSha256;

    ArtifactsBucketUpload(S3Client s3, String bucket, String packageSha256) {
        this.s3 = s3;
        this.bucket = bucket;
        this.packageSha256 = packageSha256;
    }

    /** PutObject of one file; a refusal is reported with the bucket, the key and the fix, nothing having started. */
    void put(String key, byte[] bytes) {
        try {
            s3.putObject(
                    r -> r.bucket(bucket)
                            .key(key)
                            .checksumAlgorithm(ChecksumAlgorithm.SHA256)
                            .checksumSHA256(Base64.getEncoder().encodeToString(sha256(bytes)))
                            .metadata(Map.of(SHA256_METADATA, packageSha256)),
                    RequestBody.fromBytes(bytes));
        } catch (SdkException e) {
            throw refused("upload s3://" + bucket + "/" + key, e);
        }
    }

    /** Deletes the keys under {@code prefix} that are not in {@code uploaded}: what fetch-code copies is the package alone. */
    List<String> removeOthers(String prefix, Set<String> uploaded) {
        List<String> removed = new ArrayList<>();
        try {
            for (S3Object object : s3.listObjectsV2Paginator(
                            r -> r.bucket(bucket).prefix(prefix))
                    .contents()) {
                if (!uploaded.contains(object.key())) {
                    s3.deleteObject(r -> r.bucket(bucket).key(object.key()));
                    removed.add(object.key());
                }
            }
        } catch (SdkException e) {
            throw refused("list s3://" + bucket + "/" + prefix + " to remove other keys", e);
        }
        return removed;
    }

    /**
     * The AWS error as the CLI reports it (exit 5): what it could not do, why, and the fix. Nothing
     * was started: the execution starts after the upload.
     */
    private SdkException refused(String what, SdkException e) {
        String code = e instanceof S3Exception s3e && s3e.awsErrorDetails() != null
                ? s3e.awsErrorDetails().errorCode()
                : null;
        int status = e instanceof S3Exception s3e ? s3e.statusCode() : 0;
        String why;
        String fix;
        if ("NoSuchBucket".equals(code)) {
            why = "bucket " + bucket + " does not exist (NoSuchBucket)";
            fix = "the stack's " + StackOutputs.ARTIFACTS_BUCKET + " output names a bucket that is gone: redeploy the"
                    + " stack (sam deploy) so that it creates its artifacts bucket again";
        } else if ("AccessDenied".equals(code) || status == 403) {
            why = "access denied (" + (code == null ? "HTTP 403" : code) + ")";
            fix = "your AWS identity needs " + PERMISSIONS.formatted(bucket, bucket);
        } else {
            why = code != null ? code + ": " + e.getMessage() : String.valueOf(e.getMessage());
            fix = "check your credentials, region and network";
        }
        return SdkException.create(
                "could not " + what + ": " + why + "; " + fix + ". Nothing was started: rerun the same start"
                        + " afterwards (it uploads the same keys again)",
                e);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
