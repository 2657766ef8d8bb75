package io.trainplane.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;

/** Opens the Kubernetes API of a cluster by its EKS name. */
public interface ClusterAccess {
    /**
     * A client for the cluster's API server. Clients are cached per cluster; callers must not
     * close them.
     */
    KubernetesClient connect(String clusterName);
}
