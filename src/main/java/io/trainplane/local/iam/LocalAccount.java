package io.trainplane.local.iam;

/**
 * Where the stack is deployed in local mode: the pseudo parameters of
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/pseudo-parameter-reference.html.
 */
public record LocalAccount(String accountId, String region, String partition, String stackName) {
    public static final LocalAccount LOCAL = new LocalAccount("000000000000", "us-east-1", "aws", "trainplane");

    /** The local deployment's id: AWS::StackId's last part, a UUID CloudFormation makes at each create. */
    public static final String DEPLOYMENT = "5f0c7a4e-2b1d-4c3e-9a8f-6d7e1b2c3a40";

    /** AWS::StackId: {@code arn:<partition>:cloudformation:<region>:<account>:stack/<name>/<uuid>}. */
    public String stackId() {
        return arn("cloudformation", true, "stack/" + stackName + "/" + DEPLOYMENT);
    }

    /** {@code arn:<partition>:<service>:<region>:<account>:<resource>}; region empty for global services. */
    String arn(String service, boolean regional, String resource) {
        return "arn:" + partition + ":" + service + ":" + (regional ? region : "") + ":" + accountId + ":" + resource;
    }
}
