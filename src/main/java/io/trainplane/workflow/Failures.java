package io.trainplane.workflow;

import io.trainplane.runs.VersionConflictException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Sorts what a step threw into the error names the state machine retries on: anything a second
 * attempt can fix becomes {@link TransientException} (the cause kept); the rest passes unchanged.
 */
public final class Failures {
    private Failures() {}

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
        // Only fabric8 throws its exceptions; the functions that ship without it must not load the type.
        if (e.getClass().getName().startsWith("io.fabric8.")) {
            return KubernetesFailures.classify(e);
        }
        return e;
    }
}
