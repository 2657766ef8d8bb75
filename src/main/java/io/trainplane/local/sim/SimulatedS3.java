package io.trainplane.local.sim;

import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.Callers;
import io.trainplane.local.iam.IamRequest;
import io.trainplane.local.iam.StackBucket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Simulated Amazon S3 holding the stack's buckets (template.yaml's {@code AWS::S3::Bucket}s, created
 * with the simulated stack): PutObject, GetObject, HeadObject, ListObjectsV2 and DeleteObject on
 * versioned buckets, with IAM asked as S3 asks it
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3.html: object
 * operations on {@code arn:aws:s3:::bucket/key}, ListObjectsV2 as s3:ListBucket on the bucket with
 * {@code s3:prefix}; HeadObject needs s3:GetObject,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html), the bucket policy's deny of
 * requests without TLS, and Block Public Access's refusal of public ACLs.
 *
 * <p>The AWS SDK's S3 module is not in the build (it is not in the offline repository), so this
 * service has its own small request API instead of an {@code S3Client}; the {@link FaultPlan} arms
 * its faults by the operations below ({@code s3:PutObject}).
 */
public final class SimulatedS3 {
    /** Canned ACLs that grant access to AllUsers or AuthenticatedUsers: public, per Block Public Access. */
    static final Set<String> PUBLIC_ACLS = Set.of("public-read", "public-read-write", "authenticated-read");

    /** The name calls are logged and faults armed under. */
    static final String SERVICE = "s3";
    /** The operations this S3 answers. */
    static final Set<String> OPERATIONS =
            Set.of("PutObject", "GetObject", "HeadObject", "ListObjectsV2", "DeleteObject");

    private final CallLog calls;
    private final Clock clock;
    private final Authorizer authorizer;
    private final FaultPlan faults;
    private final Map<String, Bucket> buckets = new TreeMap<>();
    private long versions;

    public SimulatedS3(CallLog calls, Clock clock, FaultPlan faults, Authorizer authorizer) {
        this.calls = calls;
        this.clock = clock;
        this.faults = faults;
        this.authorizer = authorizer;
    }

    /** A stored object's version as S3 reports it; {@code checksumSha256} is base64, as S3's x-amz-checksum-sha256. */
    public record ObjectVersion(
            String bucket, String key, String versionId, long size, String checksumSha256, Instant lastModified) {
        /** The SHA-256 as lowercase hex, as the run record and sha256sum write it. */
        public String sha256Hex() {
            return HexFormat.of().formatHex(Base64.getDecoder().decode(checksumSha256));
        }
    }

    /** What a request carries besides its operation: whether it came over TLS, and a canned ACL if any. */
    public record Transport(boolean secure, String acl) {
        public static final Transport TLS = new Transport(true, null);
        public static final Transport PLAIN_HTTP = new Transport(false, null);

        public static Transport tlsWithAcl(String acl) {
            return new Transport(true, acl);
        }
    }

    /** An error of S3, with its HTTP status and error code (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html). */
    public static final class S3Exception extends RuntimeException {
        private final int status;
        private final String code;

        public S3Exception(int status, String code, String message) {
            super(code + ": " + message + " (Service: S3, Status Code: " + status + ")");
            this.status = status;
            this.code = code;
        }

        public int status() {
            return status;
        }

        public String code() {
            return code;
        }
    }

    private static final class Bucket {
        final StackBucket stack;
        /** Each key's versions, newest last; a delete marker is a null body. */
        final Map<String, List<Stored>> objects = new TreeMap<>();

        Bucket(StackBucket stack) {
            this.stack = stack;
        }

        Stored current(String key) {
            List<Stored> all = objects.get(key);
            if (all == null || all.isEmpty()) {
                return null;
            }
            Stored newest = all.get(all.size() - 1);
            return newest.body == null ? null : newest;
        }
    }

    private record Stored(ObjectVersion version, byte[] body) {}

    /** The stack's bucket, as CloudFormation creates it with the stack. */
    public synchronized void createStackBucket(StackBucket bucket) {
        buckets.putIfAbsent(bucket.name(), new Bucket(bucket));
    }

    public synchronized ObjectVersion putObject(String bucket, String key, byte[] body, Transport transport) {
        Objects.requireNonNull(body, "body");
        Bucket b = begin("PutObject", bucket, key, transport, "s3:PutObject", objectArn(bucket, key));
        // https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html:
        // with BlockPublicAcls, "PUT Object calls fail if the request includes a public ACL".
        if (transport.acl() != null && PUBLIC_ACLS.contains(transport.acl()) && b.stack.blockPublicAcls()) {
            throw new S3Exception(
                    403,
                    "AccessDenied",
                    "Access Denied: the bucket's Block Public Access refuses ACL " + transport.acl());
        }
        ObjectVersion version =
                new ObjectVersion(bucket, key, "v" + (++versions), body.length, sha256(body), clock.instant());
        b.objects.computeIfAbsent(key, k -> new ArrayList<>()).add(new Stored(version, body.clone()));
        return version;
    }

    public synchronized byte[] getObject(String bucket, String key, Transport transport) {
        return existing(begin("GetObject", bucket, key, transport, "s3:GetObject", objectArn(bucket, key)), key)
                .body
                .clone();
    }

    public synchronized ObjectVersion headObject(String bucket, String key, Transport transport) {
        return existing(begin("HeadObject", bucket, key, transport, "s3:GetObject", objectArn(bucket, key)), key)
                .version;
    }

    /** The current objects whose keys start with {@code prefix} ("" for all), by key. */
    public synchronized List<ObjectVersion> listObjectsV2(String bucket, String prefix, Transport transport) {
        String p = prefix == null ? "" : prefix;
        Bucket b = begin("ListObjectsV2", bucket, null, transport, "s3:ListBucket", "arn:aws:s3:::" + bucket, p);
        List<ObjectVersion> out = new ArrayList<>();
        b.objects.keySet().stream()
                .filter(k -> k.startsWith(p))
                .map(b::current)
                .filter(Objects::nonNull)
                .forEach(s -> out.add(s.version));
        return out;
    }

    /**
     * Deletes the current version of {@code key} in a versioned bucket: S3 adds a delete marker, the
     * older versions stay (https://docs.aws.amazon.com/AmazonS3/latest/userguide/DeletingObjectVersions.html).
     * Deleting a missing key succeeds, as in S3.
     */
    public synchronized void deleteObject(String bucket, String key, Transport transport) {
        Bucket b = begin("DeleteObject", bucket, key, transport, "s3:DeleteObject", objectArn(bucket, key));
        if (b.current(key) != null) {
            b.objects.get(key).add(new Stored(null, null));
        }
    }

    /** The largest object CopyObject copies in one request: 5 GB (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CopyObject.html). */
    public static final long MAX_COPY_BYTES = 5L * 1024 * 1024 * 1024;

    /**
     * CopyObject, server side: S3 authorizes s3:GetObject on the source and s3:PutObject on the
     * destination (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CopyObject.html; the
     * Service Authorization Reference lists no CopyObject action). The copy's version carries the
     * SHA-256 S3 computes for it when the request asks for that checksum.
     */
    public synchronized ObjectVersion copyObject(
            String sourceBucket, String sourceKey, String bucket, String key, Transport transport) {
        Stored source = existing(
                begin(
                        "CopyObject",
                        sourceBucket,
                        sourceKey,
                        transport,
                        "s3:GetObject",
                        objectArn(sourceBucket, sourceKey)),
                sourceKey);
        Bucket b = authorized(bucket, key, transport, "s3:PutObject", objectArn(bucket, key), null);
        if (source.body.length > MAX_COPY_BYTES) {
            throw new S3Exception(
                    400,
                    "InvalidRequest",
                    "The specified copy source is larger than the maximum allowable size for a copy source: "
                            + MAX_COPY_BYTES);
        }
        ObjectVersion version = new ObjectVersion(
                bucket, key, "v" + (++versions), source.body.length, source.version.checksumSha256(), clock.instant());
        b.objects.computeIfAbsent(key, k -> new ArrayList<>()).add(new Stored(version, source.body));
        return version;
    }

    /** How many versions (delete markers included) {@code key} has: the versioning the bucket keeps. */
    public synchronized int versionCount(String bucket, String key) {
        Bucket b = buckets.get(bucket);
        return b == null ? 0 : b.objects.getOrDefault(key, List.of()).size();
    }

    private Bucket begin(String operation, String bucket, String key, Transport transport, String action, String arn) {
        return begin(operation, bucket, key, transport, action, arn, null);
    }

    /** Logs the call, checks the bucket exists and asks IAM, as S3 does before it does anything. */
    private Bucket begin(
            String operation,
            String bucket,
            String key,
            Transport transport,
            String action,
            String arn,
            String prefix) {
        calls.record(SERVICE, operation);
        faults.beforeS3Call(operation);
        return authorized(bucket, key, transport, action, arn, prefix);
    }

    /** Checks the bucket exists, the key is one S3 takes, and asks IAM: one of the authorizations of a call. */
    private Bucket authorized(
            String bucket, String key, Transport transport, String action, String arn, String prefix) {
        Bucket b = buckets.get(bucket);
        if (b == null) {
            throw new S3Exception(404, "NoSuchBucket", "The specified bucket does not exist: " + bucket);
        }
        if (key != null && (key.isEmpty() || key.getBytes(StandardCharsets.UTF_8).length > 1024)) {
            // https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-keys.html: at most 1,024 bytes.
            throw new S3Exception(400, "KeyTooLongError", "object keys are 1 to 1,024 bytes of UTF-8: " + key);
        }
        IamRequest question =
                IamRequest.of(action, arn).with("aws:SecureTransport", String.valueOf(transport.secure()));
        if (prefix != null) {
            question = question.with("s3:prefix", prefix);
        }
        // The bucket policy's explicit deny (template.yaml ArtifactsBucketPolicy) wins over any allow.
        if (b.stack.deniesInsecureTransport() && !transport.secure()) {
            throw new S3Exception(
                    403,
                    "AccessDenied",
                    "User: " + Callers.current().arn() + " is not authorized to perform: " + action + " on resource: "
                            + arn + " with an explicit deny in a resource-based policy (aws:SecureTransport false)");
        }
        AuditEntry entry = authorizer.authorize(Callers.current(), question);
        if (!entry.decision().allowed()) {
            throw new S3Exception(403, "AccessDenied", AwsErrors.deniedMessage(entry));
        }
        return b;
    }

    private static Stored existing(Bucket b, String key) {
        Stored s = b.current(key);
        if (s == null) {
            throw new S3Exception(404, "NoSuchKey", "The specified key does not exist: " + key);
        }
        return s;
    }

    private static String objectArn(String bucket, String key) {
        return "arn:aws:s3:::" + bucket + "/" + key;
    }

    private static String sha256(byte[] body) {
        try {
            return Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has SHA-256", e);
        }
    }
}
