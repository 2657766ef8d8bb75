package io.trainplane.aws;

/**
 * A Step Functions execution's ARN from its state machine's and its name:
 * {@code arn:<partition>:states:<region>:<account>:execution:<stateMachineName>:<executionName>}
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsstepfunctions.html#awsstepfunctions-resources-for-iam-policies).
 * A run's pipeline execution is named by its runId.
 */
public final class ExecutionArns {
    private ExecutionArns() {}

    public static String of(String stateMachineArn, String executionName) {
        return stateMachineArn.replaceFirst(":stateMachine:", ":execution:") + ":" + executionName;
    }
}
