package io.trainplane.local.iam;

/**
 * The stack's principals in the simulated account, as template.yaml makes them: each Lambda
 * function runs as a session of its execution role named after the function (as Lambda assumes
 * it), each state machine as a session of its role; IAM judges them by the stack's policies.
 */
public final class StackPrincipals {
    private final StackTemplate stack;

    public StackPrincipals(StackTemplate stack) {
        this.stack = stack;
    }

    /** The function {@code name} of {@code functions/} ({@code CreateCluster}), as template.yaml's {@code <name>Function} runs. */
    public Caller function(String name) {
        StackFunction function = stack.functions().get(name + "Function");
        if (function == null) {
            throw new IllegalArgumentException("template.yaml creates no " + name + "Function with these parameters");
        }
        return session(name, function.roleLogicalId(), function.name());
    }

    /** The state machine {@code name} ({@code TrainingPipeline}, {@code Cleanup}). */
    public Caller stateMachine(String name) {
        StackStateMachine machine = stack.stateMachines().get(name);
        if (machine == null) {
            throw new IllegalArgumentException(
                    "template.yaml creates no state machine " + name + " with these parameters");
        }
        return session(name, machine.roleLogicalId(), machine.name());
    }

    /**
     * A pod of a run that assumed the stack's role {@code roleLogicalId} through EKS Pod Identity,
     * whose session EKS names {@code eks-<cluster>-<pod>-<uuid>}
     * (https://docs.aws.amazon.com/eks/latest/userguide/pod-id-how-it-works.html).
     */
    public Caller pod(
            String roleLogicalId, String clusterName, String podName, java.util.Map<String, String> sessionTags) {
        Caller session = session("pod " + podName, roleLogicalId, "eks-" + clusterName + "-" + podName);
        return new Caller(session.function(), session.role(), session.arn(), sessionTags);
    }

    /** IAM for the stack's roles: each caller's request judged by its role's policies in {@code policies}. */
    public static Authorizer authorizer(StackPolicies policies) {
        return (caller, request) -> {
            IamRequest asked = caller.asked(request);
            Evaluation evaluation = policies.evaluate(caller.role(), asked);
            return AuditEntry.of(caller, asked, evaluation.decision(), evaluation.statement());
        };
    }

    private Caller session(String name, String roleLogicalId, String sessionName) {
        Role role = stack.roles().get(roleLogicalId);
        if (role == null) {
            throw new IllegalArgumentException(
                    name + " runs as " + roleLogicalId + ", which template.yaml does not create");
        }
        LocalAccount account = stack.account();
        return new Caller(
                name,
                role.logicalId(),
                "arn:" + account.partition() + ":sts::" + account.accountId() + ":assumed-role/" + role.name() + "/"
                        + sessionName);
    }
}
