package io.trainplane.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.OAuthTokenProvider;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.trainplane.aws.EksTokens;
import io.trainplane.aws.ModelWarmup;
import io.trainplane.aws.OfflineHttpClient;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.spec.RunSpec;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterStatus;
import software.amazon.awssdk.services.eks.model.DescribeClusterResponse;
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
            throw new TerminalException(
                    FailureReason.ClusterNotActive,
                    "EKS cluster " + clusterName + " is " + cluster.status() + ", not ACTIVE");
        }
        return client(
                cluster.endpoint(),
                cluster.certificateAuthority() == null
                        ? null
                        : cluster.certificateAuthority().data(),
                () -> tokens.tokenFor(clusterName));
    }

    static KubernetesClient client(String endpoint, String caData, OAuthTokenProvider token) {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(endpoint)
                .withCaCertData(caData)
                // The token is asked for on every request and renewed by EksTokens when it ages.
                .withOauthTokenProvider(token)
                // EKS endpoints are https (HTTP/2 chosen by ALPN). On plain http (the local API
                // servers) the JDK client tries an h2c upgrade on each new connection, and a write
                // with a body of 16 KB or more sent that way can wait forever for its response body.
                .withHttp2Disable(endpoint.startsWith("http://"))
                .withRequestTimeout(30_000)
                .withConnectionTimeout(10_000)
                .withRequestRetryBackoffLimit(2)
                .build();
        return new KubernetesClientBuilder()
                .withKubernetesSerialization(KubernetesJson.SERIALIZATION)
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withConfig(config)
                .build();
    }

    /**
     * SnapStart priming of the way to a cluster, offline: DescribeCluster marshalled by an EKS client
     * that never connects, a token signed with throwaway credentials, a Kubernetes client built (and
     * closed, never connected) for a placeholder endpoint, and fabric8's mapping of the run's objects
     * ({@link KubernetesJson#prime}). No request leaves, no credential or token is kept.
     */
    public static void prime(Region region, RunSpec sample) {
        AwsCredentialsProvider throwaway =
                StaticCredentialsProvider.create(AwsBasicCredentials.create("priming", "priming"));
        try (EksClient eks = EksClient.builder()
                .httpClient(new OfflineHttpClient())
                .region(region)
                .credentialsProvider(throwaway)
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build()) {
            eks.describeCluster(r -> r.name("priming"));
        }
        ModelWarmup.warm(DescribeClusterResponse.builder());
        EksTokens tokens = new EksTokens(throwaway, region, Clock.systemUTC());
        tokens.tokenFor("priming");
        // Built and closed: fabric8's client and the JDK HTTP client loaded, nothing sent.
        client("https://127.0.0.1:1", null, () -> tokens.tokenFor("priming")).close();
        KubernetesJson.prime(sample);
    }

    private Cluster describe(String clusterName) {
        try {
            return eks.describeCluster(r -> r.name(clusterName)).cluster();
        } catch (ResourceNotFoundException e) {
            throw new TerminalException(
                    FailureReason.ClusterNotFound,
                    "EKS cluster " + clusterName + " does not exist in this account and region",
                    e);
        }
    }
}
