package io.trainplane.aws;

import io.trainplane.Prerequisite;
import io.trainplane.bench.MotoProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.client.builder.SdkSyncClientBuilder;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eks.EksClient;

/**
 * moto_server, an AWS-compatible peer, as a process for one test class:
 *
 * <pre>{@code
 * @RegisterExtension static final MotoServer MOTO = new MotoServer();
 * ... EksClient eks = MOTO.eks();   EfsClient efs = MOTO.client(EfsClient.builder());
 * }</pre>
 *
 * Before the class it starts {@code moto_server -H 127.0.0.1 -p <free port>} and waits until the
 * port answers; after the class it stops it. When {@code moto_server} is not on the PATH, each of
 * the class's tests is skipped with a message saying so (never passed): the assumption is made
 * before each test rather than once for the class, because Surefire reports a class aborted in
 * {@code beforeAll} as "Tests run: 0", which reads like a pass. So build clients in
 * {@code @BeforeEach} or in the test, not in {@code @BeforeAll}. When moto_server is there but does
 * not start, the class fails with its output. Clients are real SDK clients (URL-connection HTTP, region
 * us-east-1, static credentials, account 123456789012 in moto) with {@code endpointOverride}.
 */
public final class MotoServer implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
    public static final String EXECUTABLE = MotoProcess.EXECUTABLE;
    public static final Region REGION = Region.US_EAST_1;
    /** The account moto puts every resource in. */
    public static final String ACCOUNT = "123456789012";

    private MotoProcess moto;
    private URI endpoint;
    private SdkHttpClient http;
    /** Why moto_server is not running, when it could not be started. */
    private String unavailable;

    /** {@code moto_server} on the PATH, if it is there. */
    public static Optional<Path> executable() {
        return MotoProcess.executable();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Optional<Path> executable = executable();
        if (executable.isEmpty()) {
            unavailable = "moto_server not on PATH: install moto 5 with its server (pip install 'moto[server]') to run "
                    + context.getDisplayName() + " against an AWS-compatible peer";
            return;
        }
        moto = MotoProcess.start(executable.get());
        endpoint = moto.endpoint();
        http = UrlConnectionHttpClient.create();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Prerequisite.require(unavailable == null, unavailable);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (http != null) {
            http.close();
        }
        if (moto != null) {
            moto.close();
            moto = null;
        }
    }

    /** Where the server listens, e.g. {@code http://127.0.0.1:40123}. */
    public URI endpoint() {
        return endpoint;
    }

    /** A real EKS client talking to moto. Close it, or let the JVM end. */
    public EksClient eks() {
        return client(EksClient.builder());
    }

    /** Any SDK v2 sync client, pointed at moto: {@code MOTO.client(EfsClient.builder())}. */
    public <B extends AwsClientBuilder<B, C> & SdkSyncClientBuilder<B, C>, C> C client(B builder) {
        if (endpoint == null) {
            throw new IllegalStateException(
                    unavailable != null
                            ? unavailable
                            : "moto_server is not running: register MotoServer with @RegisterExtension as a static field");
        }
        return builder.httpClient(http)
                .endpointOverride(endpoint)
                .region(REGION)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing")))
                .build();
    }

    /** Forgets every resource of every service (moto's own reset API). */
    public void reset() {
        try {
            HttpURLConnection connection = (HttpURLConnection)
                    endpoint.resolve("/moto-api/reset").toURL().openConnection();
            connection.setRequestMethod("POST");
            int status = connection.getResponseCode();
            connection.disconnect();
            if (status != 200) {
                throw new IllegalStateException("moto_server refused the reset: HTTP " + status);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An IAM role ARN in moto's account (moto checks the format of role ARNs). */
    public static String roleArn(String name) {
        return "arn:aws:iam::" + ACCOUNT + ":role/" + name;
    }
}
