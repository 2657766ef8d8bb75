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
 * <p>Lenient: the association is looked up by namespace and service account, across clusters (the
 * run's namespace is its own); the agent's token exchange and the session tags are not simulated.
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

    /** The outputs Job's termination message, as its script prints it: the model's URI and SHA-256, the checkpoint copied. */
    public static String report(io.trainplane.spec.OutputSpec output, String modelSha256, String checkpoint) {
        return io.trainplane.core.Json.write(io.trainplane.core.Json.object()
                .put("modelUri", output.s3Uri() + "model.pt")
                .put("modelSha256", modelSha256)
                .put("checkpoint", checkpoint));
    }

    public PodS3(SimulatedS3 s3, SimulatedEks eks, StackTemplate stack) {
        this.s3 = s3;
        this.eks = eks;
        this.stack = stack;
    }

    /** A pod without credentials, or whose S3 request was refused. */
    public static final class UploadFailed extends RuntimeException {
        private final int exitCode;

        UploadFailed(String message, int exitCode, Throwable cause) {
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
                return s3.putObject(bucket, key, body, Transport.TLS);
            } catch (SimulatedS3.S3Exception e) {
                // The CLI's line for a refused transfer.
                throw new UploadFailed(
                        "upload failed: to s3://" + bucket + "/" + key + " An error occurred (" + e.code()
                                + ") when calling the PutObject operation: " + e.getMessage(),
                        1,
                        e);
            }
        });
    }

    private <T> T asPod(Pod pod, Supplier<T> request) {
        String namespace = pod.getMetadata().getNamespace();
        String serviceAccount = pod.getSpec().getServiceAccountName();
        AddonPodIdentity association = eks.podIdentityAssociations().stream()
                .filter(a ->
                        a.namespace().equals(namespace) && a.serviceAccount().equals(serviceAccount))
                .findFirst()
                .orElseThrow(() -> new UploadFailed(NO_CREDENTIALS, 255, null));
        String role = stack.roles().values().stream()
                .filter(r -> r.arn().equals(association.roleArn()))
                .map(io.trainplane.local.iam.Role::logicalId)
                .findFirst()
                .orElseThrow(() -> new UploadFailed(
                        "An error occurred (AccessDenied) when calling the AssumeRole operation: "
                                + association.roleArn() + " is no role of the stack",
                        255,
                        null));
        return Callers.as(
                new StackPrincipals(stack)
                        .pod(role, association.clusterName(), pod.getMetadata().getName()),
                request);
    }
}
