package io.trainplane.cli;

import software.amazon.awssdk.core.exception.SdkException;

/** The SDK found no credentials: one sentence and how to give some, instead of its provider chain. */
final class AwsCredentials {
    static final String HOW_TO_SET = "no AWS credentials found: set AWS_PROFILE to a profile of ~/.aws/config"
            + " (aws configure, or aws sso login --profile NAME), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY;"
            + " local mode needs none (trainplane run SPEC, --local)";

    private AwsCredentials() {}

    /** Whether {@code e}, or what caused it, is the credential chain's "Unable to load credentials". */
    static boolean missing(SdkException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().startsWith("Unable to load credentials")) {
                return true;
            }
        }
        return false;
    }
}
