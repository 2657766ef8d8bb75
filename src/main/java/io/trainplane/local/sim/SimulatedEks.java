package io.trainplane.local.sim;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterStatus;
import software.amazon.awssdk.services.eks.model.DescribeClusterRequest;
import software.amazon.awssdk.services.eks.model.DescribeClusterResponse;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/**
 * EKS as the SDK sees it, in process. It knows the account's pre-existing clusters (whose API
 * server is the simulated Kubernetes); every call is counted; unknown names fail as EKS fails.
 */
public final class SimulatedEks implements EksClient {
    private final Map<String, Cluster> clusters = new ConcurrentHashMap<>();
    private final CallLog calls;
    private final Clock clock;

    public SimulatedEks(CallLog calls, Clock clock) {
        this.calls = calls;
        this.clock = clock;
    }

    /** A cluster that exists before any run: what {@code cluster.mode: existing} connects to. */
    public void addExistingCluster(String name, String endpoint, String kubernetesVersion) {
        clusters.put(name, Cluster.builder()
                .name(name)
                .arn("arn:aws:eks:us-east-1:000000000000:cluster/" + name)
                .status(ClusterStatus.ACTIVE)
                .endpoint(endpoint)
                .version(kubernetesVersion)
                .createdAt(clock.instant())
                .build());
    }

    @Override
    public DescribeClusterResponse describeCluster(DescribeClusterRequest request) {
        calls.record("eks", "DescribeCluster");
        Cluster cluster = clusters.get(request.name());
        if (cluster == null) {
            throw (ResourceNotFoundException) ResourceNotFoundException.builder()
                    .message("No cluster found for name: " + request.name() + ".")
                    .statusCode(404)
                    .build();
        }
        return DescribeClusterResponse.builder().cluster(cluster).build();
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {}
}
