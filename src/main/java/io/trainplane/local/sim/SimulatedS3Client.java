package io.trainplane.local.sim;

import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CopyObjectResult;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The account's S3 ({@link SimulatedS3}) behind the SDK's S3Client, as the functions call it: the
 * operations they make (CopyObject, GetObject, PutObject), over TLS, as the calling function (IAM
 * evaluated). Every other operation is the interface's default: unsupported.
 */
public final class SimulatedS3Client implements S3Client {
    private final SimulatedS3 s3;

    public SimulatedS3Client(SimulatedS3 s3) {
        this.s3 = s3;
    }

    @Override
    public CopyObjectResponse copyObject(CopyObjectRequest request) {
        SimulatedS3.ObjectVersion copy = answer(() -> s3.copyObject(
                request.sourceBucket(),
                request.sourceKey(),
                request.destinationBucket(),
                request.destinationKey(),
                SimulatedS3.Transport.TLS));
        // S3 returns the checksum it computed only when the request names the algorithm.
        boolean sha256 = request.checksumAlgorithm() == ChecksumAlgorithm.SHA256;
        return CopyObjectResponse.builder()
                .versionId(copy.versionId())
                .copyObjectResult(CopyObjectResult.builder()
                        .lastModified(copy.lastModified())
                        .checksumSHA256(sha256 ? copy.checksumSha256() : null)
                        .build())
                .build();
    }

    @Override
    public ResponseBytes<GetObjectResponse> getObjectAsBytes(GetObjectRequest request) {
        byte[] body = answer(() -> s3.getObject(request.bucket(), request.key(), SimulatedS3.Transport.TLS));
        return ResponseBytes.fromByteArray(
                GetObjectResponse.builder().contentLength((long) body.length).build(), body);
    }

    @Override
    public PutObjectResponse putObject(PutObjectRequest request, RequestBody body) {
        byte[] bytes;
        try (var in = body.contentStreamProvider().newStream()) {
            bytes = in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        SimulatedS3.ObjectVersion put =
                answer(() -> s3.putObject(request.bucket(), request.key(), bytes, SimulatedS3.Transport.TLS));
        return PutObjectResponse.builder()
                .versionId(put.versionId())
                .checksumSHA256(put.checksumSha256())
                .build();
    }

    /** S3's error, as the SDK raises it: NoSuchKey as its own exception, the others as S3Exception. */
    private static <T> T answer(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (SimulatedS3.S3Exception e) {
            throw AwsErrors.of(
                    "S3",
                    e.code().equals("NoSuchKey") ? NoSuchKeyException.builder() : S3Exception.builder(),
                    e.status(),
                    e.code(),
                    e.getMessage());
        }
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {}
}
