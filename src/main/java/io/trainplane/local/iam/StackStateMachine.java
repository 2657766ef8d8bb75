package io.trainplane.local.iam;

import java.util.Map;

/**
 * A Step Functions state machine of the stack, resolved for the local account.
 *
 * @param definitionUri  where its definition is, relative to the template ({@code statemachines/cleanup.asl.json})
 * @param roleLogicalId  the logical id of its role ({@code CleanupRole}, the one SAM generates from its Policies)
 * @param substitutions  its DefinitionSubstitutions, resolved
 */
public record StackStateMachine(
        String logicalId,
        String name,
        String arn,
        String roleLogicalId,
        String definitionUri,
        Map<String, String> substitutions) {
    public StackStateMachine {
        substitutions = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(substitutions));
    }
}
