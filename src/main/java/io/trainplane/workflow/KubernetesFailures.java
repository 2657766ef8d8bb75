package io.trainplane.workflow;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;

/** The Kubernetes half of {@link Failures}, apart so that functions without fabric8 never load it. */
final class KubernetesFailures {
    static final FailureReason ACCESS_DENIED = FailureReason.ClusterAccessDenied;
    private static final String ADMIN_POLICY = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy";

    private KubernetesFailures() {}

    static RuntimeException classify(RuntimeException e) {
        if (e instanceof KubernetesClientException k
                && (k.getCode() == 0 || k.getCode() == 429 || k.getCode() >= 500)) {
            return new TransientException("the Kubernetes API asked to retry: " + k.getMessage(), e);
        }
        if (e instanceof KubernetesClientException k && refused(k)) {
            return accessDenied(null, k);
        }
        return e;
    }

    /** 401 or 403: the API server does not know the caller's principal, or lets it do nothing of this. */
    static boolean refused(KubernetesClientException e) {
        return e.getCode() == 401 || e.getCode() == 403;
    }

    /**
     * What a refusal means for an EKS cluster and how to fix it. EKS answers 401 when the token's
     * principal has no access entry (or the token is not valid), 403 when its entry grants nothing
     * that allows the request (https://docs.aws.amazon.com/eks/latest/userguide/access-entries.html).
     * {@code cluster} may be null when the caller does not know it.
     */
    static TerminalException accessDenied(String cluster, KubernetesClientException e) {
        String name = cluster == null ? "<cluster>" : cluster;
        String of = cluster == null ? "the run's cluster" : "cluster " + cluster;
        String associate =
                "aws eks associate-access-policy --cluster-name " + name + " --principal-arn <ClusterWorkRoleArn>"
                        + " --policy-arn " + ADMIN_POLICY + " --access-scope type=cluster";
        String message = e.getCode() == 401
                ? "the Kubernetes API of " + of
                        + " answered 401 Unauthorized: the functions' role (stack output ClusterWorkRoleArn)"
                        + " has no EKS access entry on it. Create one and make it cluster admin: aws eks create-access-entry"
                        + " --cluster-name " + name + " --principal-arn <ClusterWorkRoleArn>, then " + associate
                        + " (docs/deploying.md: Using an existing cluster; the cluster's authentication mode must include API)"
                : "the Kubernetes API of " + of + " answered 403 Forbidden (" + serverMessage(e)
                        + "): the access entry of the"
                        + " functions' role (stack output ClusterWorkRoleArn) does not allow what the run does. Give it cluster admin: "
                        + associate + " (docs/deploying.md: Using an existing cluster)";
        return new TerminalException(ACCESS_DENIED, message, e);
    }

    private static String serverMessage(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null
                ? e.getStatus().getMessage()
                : e.getMessage();
    }
}
