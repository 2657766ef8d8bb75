package io.trainplane.local;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.local.iam.Caller;
import io.trainplane.local.iam.Callers;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Cluster access in local mode, one per caller: on AWS each function reaches a cluster with a
 * token signed by its own role's credentials; here the functions share a process, so the caller
 * bound to the thread picks its own access (its own credentials, tokens and clients).
 */
final class CallerClusterAccess implements ClusterAccess {
    private final Function<Caller, ClusterAccess> accessOf;
    private final Map<Caller, ClusterAccess> byCaller = new ConcurrentHashMap<>();

    CallerClusterAccess(Function<Caller, ClusterAccess> accessOf) {
        this.accessOf = accessOf;
    }

    @Override
    public KubernetesClient connect(String clusterName) {
        return byCaller.computeIfAbsent(Callers.current(), accessOf).connect(clusterName);
    }
}
