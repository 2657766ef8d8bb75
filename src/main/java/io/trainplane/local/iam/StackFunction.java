package io.trainplane.local.iam;

import java.util.Map;

/**
 * A Lambda function of the stack, resolved for the local account.
 *
 * @param logicalId     its logical id in template.yaml ({@code StartRunFunction})
 * @param name          its physical name ({@code trainplane-StartRunFunction})
 * @param aliasArn      the ARN of its AutoPublishAlias ({@code ...:function:trainplane-StartRunFunction:live}),
 *                      what the state machines invoke; null without one
 * @param roleLogicalId the logical id of its execution role ({@code RunRecordRole})
 * @param environment   Globals.Function.Environment.Variables merged with its own, resolved; entries
 *                      that resolve to AWS::NoValue are left out
 * @param timeoutSeconds its Timeout (Globals' or its own; Lambda's default, 3 s, without either)
 * @param memoryMb      its MemorySize (Lambda's default, 128 MB, without one)
 */
public record StackFunction(
        String logicalId,
        String name,
        String arn,
        String aliasArn,
        String roleLogicalId,
        Map<String, String> environment,
        int timeoutSeconds,
        int memoryMb) {
    public StackFunction {
        environment = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(environment));
    }
}
