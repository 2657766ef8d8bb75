package io.trainplane.local.iam;

/**
 * An S3 bucket of the stack as it deploys into the simulated account.
 *
 * @param blockPublicAcls          its PublicAccessBlockConfiguration's BlockPublicAcls: a request that
 *                                 sets a public ACL is refused
 *                                 (https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html)
 * @param deniesInsecureTransport  its bucket policy denies requests with {@code aws:SecureTransport} false
 */
public record StackBucket(
        String logicalId, String name, String arn, boolean blockPublicAcls, boolean deniesInsecureTransport) {}
