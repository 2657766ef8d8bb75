package io.trainplane.local.iam;

/**
 * Where the stack is deployed in local mode: the pseudo parameters of
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/pseudo-parameter-reference.html.
 */
public record LocalAccount(String accountId, String region, String partition, String stackName) {
    public static final LocalAccount LOCAL = new LocalAccount("000000000000", "us-east-1", "aws", "trainplane");

    /** {@code arn:<partition>:<service>:<region>:<account>:<resource>}; region empty for global services. */
    String arn(String service, boolean regional, String resource) {
        return "arn:" + partition + ":" + service + ":" + (regional ? region : "") + ":" + accountId + ":" + resource;
    }
}
