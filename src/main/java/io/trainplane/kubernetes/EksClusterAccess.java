package io.trainplane.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.trainplane.aws.EksTokens;
import io.trainplane.workflow.TerminalException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterStatus;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/**
 * Kubernetes access without kubeconfig or kubectl: the endpoint and CA from DescribeCluster, a
 * bearer token from {@link EksTokens}, and fabric8 over the JDK HTTP client.
 */
public final class EksClusterAccess implements ClusterAccess {
    private final EksClient eks;
    private final EksTokens tokens;
    private final Map<String, KubernetesClient> clients = new ConcurrentHashMap<>();

    public EksClusterAccess(EksClient eks, EksTokens tokens) {
        this.eks = eks;
        this.tokens = tokens;
    }

    /** As the {@link ClusterAccess} type, so that callers link against the interface only. */
    public static ClusterAccess of(EksClient eks, EksTokens tokens) {
        return new EksClusterAccess(eks, tokens);
    }

    @Override
    public KubernetesClient connect(String clusterName) {
        return clients.computeIfAbsent(clusterName, this::open);
    }

    private KubernetesClient open(String clusterName) {
        Cluster cluster = describe(clusterName);
        if (cluster.status() != ClusterStatus.ACTIVE) {
            throw new TerminalException("ClusterNotActive",
                    "EKS cluster " + clusterName + " is " + cluster.status() + ", not ACTIVE");
        }
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(cluster.endpoint())
                .withCaCertData(cluster.certificateAuthority() == null ? null : cluster.certificateAuthority().data())
                // The token is asked for on every request and renewed by EksTokens when it ages.
                .withOauthTokenProvider(() -> tokens.tokenFor(clusterName))
                .withRequestTimeout(30_000)
                .withConnectionTimeout(10_000)
                .withRequestRetryBackoffLimit(2)
                .build();
        return new KubernetesClientBuilder()
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withConfig(config)
                .build();
    }

    private Cluster describe(String clusterName) {
        try {
            return eks.describeCluster(r -> r.name(clusterName)).cluster();
        } catch (ResourceNotFoundException e) {
            throw new TerminalException("ClusterNotFound",
                    "EKS cluster " + clusterName + " does not exist in this account and region", e);
        }
    }
}
