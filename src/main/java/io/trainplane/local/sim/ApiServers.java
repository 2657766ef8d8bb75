package io.trainplane.local.sim;

/**
 * Where EKS gets each cluster's Kubernetes API server: one is started when a cluster is created
 * (its endpoint is what DescribeCluster reports once the cluster is ACTIVE) and stopped when the
 * cluster has finished deleting.
 */
public interface ApiServers {
    /** No API server: created clusters have no endpoint (tests of EKS alone). */
    ApiServers NONE = at(null);

    /**
     * Starts the API server of {@code cluster}, bare as EKS creates it, with the self-managed
     * networking add-ons (CoreDNS, kube-proxy, the VPC CNI) unless {@code networkingAddons} is false
     * (CreateCluster's bootstrapSelfManagedAddons); its endpoint.
     */
    String start(String cluster, String kubernetesVersion, boolean networkingAddons);

    /** The cluster is gone: its API server and everything stored in it go too. */
    void stop(String cluster);

    /** EKS installs add-on {@code addon} on the cluster ({@link AddonWorkloads}). */
    default void installAddon(String cluster, String addon) {}

    /** EKS removes add-on {@code addon} from the cluster, its workloads with it. */
    default void removeAddon(String cluster, String addon) {}

    /**
     * Whether the add-on's pods run on the cluster; empty when this has no API server for it (then
     * EKS's timer alone says when the add-on is ACTIVE).
     */
    default java.util.Optional<Boolean> addonRunning(String cluster, String addon) {
        return java.util.Optional.empty();
    }

    /** One fixed endpoint for every cluster, started and stopped by someone else (tests that bring their own). */
    static ApiServers at(String endpoint) {
        return new ApiServers() {
            @Override
            public String start(String cluster, String kubernetesVersion, boolean networkingAddons) {
                return endpoint;
            }

            @Override
            public void stop(String cluster) {}
        };
    }
}
