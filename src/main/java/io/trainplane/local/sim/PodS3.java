package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Pod;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.local.iam.Callers;
import io.trainplane.local.iam.StackPrincipals;
import io.trainplane.local.iam.StackTemplate;
import io.trainplane.local.sim.SimulatedS3.ObjectVersion;
import io.trainplane.local.sim.SimulatedS3.Transport;
import java.util.function.Supplier;

/**
 * The account's S3 as a run's pod reaches it: with the credentials EKS Pod Identity gives the
 * pod's service account, the role of its association in the pod's namespace
 * (https://docs.aws.amazon.com/eks/latest/userguide/pod-id-how-it-works.html), its requests judged
 * by that role's policies. A pod whose service account has no association has no credentials: the
 * AWS CLI's credential chain finds none and says so.
 *
 * <p>The session carries the tags EKS Pod Identity adds (cluster, namespace, service account, pod),
 * which the role's policies read as {@code aws:PrincipalTag/...}
 * (https://docs.aws.amazon.com/eks/latest/userguide/pod-id-abac.html): template.yaml's
 * RunOutputsRole confines a pod to its namespace's prefix with them.
 *
 * <p>Lenient: the association is looked up by namespace and service account, across clusters (the
 * run's namespace is its own); the agent's token exchange is not simulated, nor an association's
 * disableSessionTags (Trainplane never sets it).
 */
public final class PodS3 {
    /** What the AWS CLI prints when its credential chain finds nothing (exit 255). */
    public static final String NO_CREDENTIALS =
            "Unable to locate credentials. You can configure credentials by running \"aws configure\".";

    private final SimulatedS3 s3;
    private final SimulatedEks eks;
    private final StackTemplate stack;

    /** Where the outputs Job copies to: its container's {@link WorkloadManifests#OUTPUT_URI_ENV}. */
    public static io.trainplane.spec.OutputSpec destination(io.fabric8.kubernetes.api.model.batch.v1.Job outputs) {
        String uri = outputs.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals(WorkloadManifests.OUTPUT_URI_ENV))
                .map(io.fabric8.kubernetes.api.model.EnvVar::getValue)
                .findFirst()
                .orElseThrow();
        return new io.trainplane.spec.OutputSpec(uri);
    }

    /** Where a training pod's checkpoint sidecar syncs to: its {@link WorkloadManifests#OUTPUT_URI_ENV}. */
    public static io.trainplane.spec.OutputSpec checkpointsDestination(Pod pod) {
        String uri = pod.getSpec().getInitContainers().stream()
                .filter(c -> c.getName().equals(WorkloadManifests.CHECKPOINT_SYNC))
                .flatMap(c -> c.getEnv().stream())
                .filter(e -> e.getName().equals(WorkloadManifests.OUTPUT_URI_ENV))
                .map(io.fabric8.kubernetes.api.model.EnvVar::getValue)
                .findFirst()
                .orElseThrow();
        return new io.trainplane.spec.OutputSpec(uri);
    }

    /** The outputs Job's termination message, as its script prints it: the model's URI and SHA-256, the checkpoint copied and its SHA-256. */
    public static String report(
            io.trainplane.spec.OutputSpec output, String modelSha256, String checkpoint, String checkpointSha256) {
        // As the script prints it: an empty model when there was none to copy (MODEL_OPTIONAL).
        return io.trainplane.core.Json.write(io.trainplane.core.Json.object()
                .put("modelUri", modelSha256 == null ? "" : output.s3Uri() + "model.pt")
                .put("modelSha256", modelSha256 == null ? "" : modelSha256)
                .put("checkpoint", checkpoint)
                .put("checkpointSha256", checkpointSha256));
    }

    public PodS3(SimulatedS3 s3, SimulatedEks eks, StackTemplate stack) {
        this.s3 = s3;
        this.eks = eks;
        this.stack = stack;
    }

    /**
     * A request as the pods' AWS CLI v2 makes it, in its default "standard" retry mode: up to 3
     * attempts when S3 answers a 5xx or a throttle (SlowDown), none for a 4xx
     * (https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-retries.html).
     */
    static <T> T withCliRetries(java.util.function.Supplier<T> request) {
        for (int attempt = 1; ; attempt++) {
            try {
                return request.get();
            } catch (SimulatedS3.S3Exception e) {
                if (attempt >= 3 || e.status() < 500) {
                    throw e;
                }
            }
        }
    }

    /** A pod's AWS CLI command that failed: no credentials, a refused or missing object, a fetched checkpoint's digest. */
    public static final class AwsCliFailed extends RuntimeException {
        private final int exitCode;

        AwsCliFailed(String message, int exitCode, Throwable cause) {
            super(message, cause);
            this.exitCode = exitCode;
        }

        /** The AWS CLI's exit code: 255 when it could not even sign, 1 when a transfer failed (https://docs.aws.amazon.com/cli/latest/topic/return-codes.html). */
        public int exitCode() {
            return exitCode;
        }
    }

    /** Puts {@code body} at {@code s3://bucket/key} as {@code pod}, over TLS as the CLI does; the stored version. */
    public ObjectVersion put(Pod pod, String bucket, String key, byte[] body) {
        return asPod(pod, () -> {
            try {
                return withCliRetries(() -> s3.putObject(bucket, key, body, Transport.TLS));
            } catch (SimulatedS3.S3Exception e) {
                // The CLI's line for a refused transfer.
                throw new AwsCliFailed(
                        "upload failed: to s3://" + bucket + "/" + key + " An error occurred (" + e.code()
                                + ") when calling the PutObject operation: " + e.getMessage(),
                        1,
                        e);
            }
        });
    }

    /**
     * What the checkpoint sidecar's sync does for one checkpoint of {@code pod}: the checkpoint,
     * then its {@code .sha256}, under its destination's {@code checkpoints/} (train.py's order, so a
     * digest in S3 always has its checkpoint).
     */
    public void putCheckpoint(Pod pod, String name, byte[] checkpoint, byte[] digest) {
        var output = checkpointsDestination(pod);
        String key = output.prefix() + io.trainplane.spec.OutputSpec.CHECKPOINTS_PREFIX + name;
        put(pod, output.bucket(), key, checkpoint);
        put(pod, output.bucket(), key + ".sha256", digest);
    }

    /**
     * Gets {@code s3://bucket/key} as {@code pod}, as {@code aws s3 cp} downloads: HeadObject first,
     * then GetObject. A missing key or a refused read fails as the CLI does, exit 1 with its line
     * (https://docs.aws.amazon.com/cli/latest/topic/return-codes.html: 1 when an S3 transfer failed).
     */
    public byte[] get(Pod pod, String bucket, String key) {
        return asPod(pod, () -> {
            try {
                withCliRetries(() -> s3.headObject(bucket, key, Transport.TLS));
                return withCliRetries(() -> s3.getObject(bucket, key, Transport.TLS));
            } catch (SimulatedS3.S3Exception e) {
                // The CLI reports the HeadObject's status: a missing key is a 404 with no body to name it.
                String said = e.status() == 404 && e.code().equals("NoSuchKey")
                        ? "Key \"" + key + "\" does not exist"
                        : e.status() == 403 ? "Forbidden" : e.getMessage();
                throw new AwsCliFailed(
                        "fatal error: An error occurred (" + e.status() + ") when calling the HeadObject operation: "
                                + said,
                        1,
                        e);
            }
        });
    }

    /** The checkpoint the data pod's fetch-checkpoint init container copied, verified: its file name, epoch, bytes and .sha256. */
    public record FetchedCheckpoint(String fileName, int epoch, byte[] checkpoint, byte[] digest) {}

    /**
     * What the data pod's {@link WorkloadManifests#FETCH_CHECKPOINT} init container does, without
     * the AWS CLI: gets training.resumeFrom and its .sha256 as the pod and checks the digest. A
     * failed get throws {@link AwsCliFailed} (the CLI's code and words); a mismatch too, with the
     * script's exit code {@value WorkloadManifests#CHECKPOINT_MISMATCH} and line.
     */
    public FetchedCheckpoint fetchCheckpoint(Pod pod) {
        String uri = initEnv(pod, WorkloadManifests.FETCH_CHECKPOINT, WorkloadManifests.RESUME_FROM_ENV)
                .orElseThrow();
        var at = io.trainplane.spec.CheckpointUri.parse(uri).orElseThrow();
        byte[] checkpoint = get(pod, at.bucket(), at.key());
        byte[] digest = get(pod, at.bucket(), at.key() + ".sha256");
        String expected = new String(digest, java.nio.charset.StandardCharsets.UTF_8)
                .strip()
                .split("\\s+")[0];
        String actual = SimulatedWorkload.sha256Hex(checkpoint);
        if (!actual.equals(expected)) {
            throw new AwsCliFailed(
                    "CHECKPOINT CHECKSUM MISMATCH " + uri + " has SHA-256 " + actual + ", its .sha256 says " + expected,
                    WorkloadManifests.CHECKPOINT_MISMATCH,
                    null);
        }
        return new FetchedCheckpoint(at.fileName(), at.epoch(), checkpoint, digest);
    }

    /**
     * What a pod's {@link WorkloadManifests#FETCH_CODE} init container does without the AWS CLI:
     * {@code aws s3 cp --recursive} of its prefix as the pod (ListObjectsV2, then GetObject each),
     * the files by path under the prefix. A refused or missing bucket fails as the CLI does (exit
     * 1); an empty prefix as the script does (exit 1, saying so), and files that are not the
     * uploaded package too (exit {@value WorkloadManifests#CODE_MISMATCH}).
     */
    public java.util.SortedMap<String, byte[]> fetchCode(Pod pod) {
        String uri = initEnv(pod, WorkloadManifests.FETCH_CODE, WorkloadManifests.CODE_URI_ENV)
                .orElseThrow();
        var prefix = new io.trainplane.spec.WorkloadCode.S3Prefix(uri);
        String bucket = prefix.bucket();
        String keyPrefix = prefix.prefix().substring(("s3://" + bucket + "/").length());
        java.util.List<ObjectVersion> objects = asPod(pod, () -> {
            try {
                return withCliRetries(() -> s3.listObjectsV2(bucket, keyPrefix, Transport.TLS));
            } catch (SimulatedS3.S3Exception e) {
                throw new AwsCliFailed(
                        "fatal error: An error occurred (" + e.code() + ") when calling the ListObjectsV2 operation: "
                                + e.getMessage(),
                        1,
                        e);
            }
        });
        java.util.SortedMap<String, byte[]> files = new java.util.TreeMap<>();
        for (ObjectVersion object : objects) {
            if (!object.key().endsWith("/")) {
                files.put(object.key().substring(keyPrefix.length()), get(pod, bucket, object.key()));
            }
        }
        if (files.isEmpty()) {
            throw new AwsCliFailed("no code under " + uri + ": the prefix is empty", 1, null);
        }
        var expected = initEnv(pod, WorkloadManifests.FETCH_CODE, WorkloadManifests.CODE_SHA256_ENV);
        String actual = io.trainplane.spec.CodeDirectory.digest(files);
        if (expected.isPresent() && !expected.get().equals(actual)) {
            throw new AwsCliFailed(
                    "CODE DIGEST MISMATCH the files under " + uri + " have SHA-256 " + actual
                            + ", the package uploaded for this run has " + expected.get(),
                    WorkloadManifests.CODE_MISMATCH,
                    null);
        }
        return files;
    }

    /** The value of {@code name} in the environment of the pod's init container {@code container}. */
    private static java.util.Optional<String> initEnv(Pod pod, String container, String name) {
        return pod.getSpec().getInitContainers().stream()
                .filter(c -> c.getName().equals(container))
                .flatMap(c -> c.getEnv().stream())
                .filter(e -> e.getName().equals(name))
                .map(io.fabric8.kubernetes.api.model.EnvVar::getValue)
                .findFirst();
    }

    /** The account's secrets, which the pods' fetch-secrets reads ({@link PodSecrets}); none until wired. */
    private volatile SimulatedSecrets secrets;

    public PodS3 readingSecretsFrom(SimulatedSecrets secrets) {
        this.secrets = secrets;
        return this;
    }

    /**
     * What the pod's {@link io.trainplane.kubernetes.SecretFetch#CONTAINER} init container reads:
     * each secret's value by variable name, as the pod; {@link AwsCliFailed} when one cannot be read.
     */
    public java.util.Map<String, String> fetchSecrets(Pod pod) {
        if (secrets == null) {
            throw new IllegalStateException("this account has no secrets service: LocalCloud wires one");
        }
        return new PodSecrets(this, secrets).fetch(pod);
    }

    <T> T asPod(Pod pod, Supplier<T> request) {
        String namespace = pod.getMetadata().getNamespace();
        String serviceAccount = pod.getSpec().getServiceAccountName();
        AddonPodIdentity association = eks.podIdentityAssociations().stream()
                .filter(a ->
                        a.namespace().equals(namespace) && a.serviceAccount().equals(serviceAccount))
                .findFirst()
                .orElseThrow(() -> new AwsCliFailed(NO_CREDENTIALS, 255, null));
        String role = stack.roles().values().stream()
                .filter(r -> r.arn().equals(association.roleArn()))
                .map(io.trainplane.local.iam.Role::logicalId)
                .findFirst()
                .orElseThrow(() -> new AwsCliFailed(
                        "An error occurred (AccessDenied) when calling the AssumeRole operation: "
                                + association.roleArn() + " is no role of the stack",
                        255,
                        null));
        return Callers.as(
                new StackPrincipals(stack)
                        .pod(
                                role,
                                association.clusterName(),
                                pod.getMetadata().getName(),
                                sessionTags(association, pod)),
                request);
    }

    /** The session tags EKS Pod Identity adds for {@code pod} (https://docs.aws.amazon.com/eks/latest/userguide/pod-id-abac.html#pod-id-abac-tags). */
    static java.util.Map<String, String> sessionTags(AddonPodIdentity association, Pod pod) {
        // arn:aws:eks:<region>:<account>:podidentityassociation/<cluster>/<id>: the cluster's is beside it.
        String[] arn = association.associationArn().split(":", 6);
        var tags = new java.util.TreeMap<String, String>();
        tags.put(
                "eks-cluster-arn",
                String.join(":", java.util.Arrays.copyOf(arn, 5)) + ":cluster/" + association.clusterName());
        tags.put("eks-cluster-name", association.clusterName());
        tags.put("kubernetes-namespace", pod.getMetadata().getNamespace());
        tags.put("kubernetes-service-account", pod.getSpec().getServiceAccountName());
        tags.put("kubernetes-pod-name", pod.getMetadata().getName());
        if (pod.getMetadata().getUid() != null) {
            tags.put("kubernetes-pod-uid", pod.getMetadata().getUid());
        }
        return tags;
    }
}
