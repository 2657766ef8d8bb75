package io.trainplane.workflow;

import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import io.trainplane.runs.VersionConflictException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Sorts what a step threw into the error names the state machine retries on: anything a second
 * attempt can fix becomes {@link TransientException} (the cause kept); the rest passes unchanged.
 */
public final class Failures {
    /** The error name of an IAM refusal, whatever the service calls it. */
    public static final FailureReason ACCESS_DENIED = FailureReason.AccessDeniedException;

    private Failures() {}

    /** An IAM refusal: {@code AccessDeniedException} (most services), {@code AccessDenied} (S3, STS), {@code UnauthorizedOperation} (EC2). */
    static boolean accessDenied(AwsServiceException e) {
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        return "AccessDeniedException".equals(code)
                || "AccessDenied".equals(code)
                || "UnauthorizedOperation".equals(code);
    }

    public static RuntimeException classify(RuntimeException e) {
        if (e instanceof TransientException || e instanceof TerminalException) {
            return e;
        }
        if (e instanceof VersionConflictException) {
            return new TransientException("the run record changed concurrently; retrying", e);
        }
        if (e instanceof SdkClientException) {
            return new TransientException("AWS could not be reached: " + e.getMessage(), e);
        }
        if (e instanceof AwsServiceException aws && (aws.isThrottlingException() || aws.statusCode() >= 500)) {
            return new TransientException("AWS asked to retry: " + aws.getMessage(), e);
        }
        if (e instanceof AwsServiceException aws && accessDenied(aws)) {
            // IAM does not change its mind on a retry: the stack's role lacks the permission.
            return new TerminalException(
                    ACCESS_DENIED,
                    aws.getMessage()
                            + ". The function's role in template.yaml does not grant it (trainplane iam prints the roles' policies)",
                    e);
        }
        // Only fabric8 throws its exceptions; the functions that ship without it must not load the type.
        if (e.getClass().getName().startsWith("io.fabric8.")) {
            return KubernetesFailures.classify(e);
        }
        return e;
    }
}
