import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A reference for ./bench/run coldstart, not a function: the baseline's PutItem, then one
 * Kubernetes GET through fabric8 with the JDK HTTP client, the least any function of the
 * Kubernetes artifact does (it also gets a token, and DescribeCluster or the run's objects). Its
 * ratio to the baseline is the floor of those functions' ratios while they reach Kubernetes through
 * fabric8. Compiled with the harness against the Kubernetes artifact only.
 */
public final class ColdStartKubernetesFloor implements RequestStreamHandler {
    private final ColdStartHarness.Baseline baseline = new ColdStartHarness.Baseline();
    private final KubernetesClient kubernetes = new KubernetesClientBuilder()
            .withHttpClientFactory(new JdkHttpClientFactory())
            .withConfig(new ConfigBuilder(Config.empty())
                    .withMasterUrl(System.getenv("COLDSTART_KUBERNETES_URL"))
                    .withTrustCerts(true)
                    .build())
            .build();

    @Override
    public void handleRequest(InputStream in, OutputStream out, Context context) throws IOException {
        baseline.handleRequest(in, out, context);
        kubernetes
                .genericKubernetesResources("v1", "Namespace")
                .withName("default")
                .get();
    }
}
