package io.trainplane.clients;

import io.trainplane.aws.EksTokens;
import io.trainplane.aws.OfflineHttpClient;
import io.trainplane.aws.Settings;
import io.trainplane.aws.fsx.FsxJsonClient;
import io.trainplane.aws.fsx.LustreFileSystems;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.EksClusterAccess;
import io.trainplane.spec.RunSpec;
import java.time.Clock;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The real clients: built once per Lambda container, lazily (a function that never talks to EKS
 * never builds an EKS client), with the URL connection HTTP client and an explicit region and
 * credentials provider. {@code AWS_ENDPOINT_URL} is honoured by the SDK itself.
 *
 * <p>Credentials are resolved on the first request, never at construction, so a SnapStart
 * snapshot holds none; the Kubernetes client is built only by the functions that connect to a
 * cluster (those that ship without fabric8 never load it, see {@link #clusters()}).
 */
public final class AwsClients implements Clients {
    private static final Supplier<AwsClients> FROM_ENVIRONMENT =
            memoize(() -> new AwsClients(Settings.fromEnvironment()));

    private final Settings settings;
    private final Region region;
    private final AwsCredentialsProvider credentials;
    private final SdkHttpClient http;
    private final Supplier<DynamoDbClient> dynamoDb;
    private final Supplier<EksClient> eks;
    private final Supplier<EfsClient> efs;
    /**
     * An FSxClient, typed Object: the Kubernetes artifact has no FSx SDK, and a lambda returning
     * FSxClient would need the class as soon as this constructor links it.
     */
    private final Supplier<Object> fsx;
    /** An S3Client, typed Object for the same reason. */
    private final Supplier<Object> s3;

    private final Supplier<CloudControlClient> cloudControl;
    private final Supplier<CloudWatchEventsClient> events;
    private SfnClient sfn;
    private final EksTokens tokens;
    private ClusterAccess clusters;

    public AwsClients(Settings settings) {
        // In Lambda the credentials are in the environment, or (SnapStart) behind the container
        // credentials endpoint; the default chain, with its profile files, is for the CLI.
        this(
                settings,
                System.getenv("AWS_LAMBDA_FUNCTION_NAME") != null
                        ? AwsCredentialsProviderChain.of(
                                EnvironmentVariableCredentialsProvider.create(),
                                ContainerCredentialsProvider.builder().build())
                        : DefaultCredentialsProvider.builder().build());
    }

    AwsClients(Settings settings, AwsCredentialsProvider credentials) {
        this(settings, credentials, UrlConnectionHttpClient.create());
    }

    private AwsClients(Settings settings, AwsCredentialsProvider credentials, SdkHttpClient http) {
        this.http = http;
        this.settings = settings;
        this.region = Region.of(settings.region());
        this.credentials = credentials;
        this.tokens = new EksTokens(credentials, region, Clock.systemUTC());
        this.dynamoDb = memoize(() -> DynamoDbClient.builder()
                .httpClient(http)
                .region(region)
                .credentialsProvider(credentials)
                .build());
        this.eks = memoize(() -> EksClient.builder()
                .httpClient(http)
                .region(region)
                .credentialsProvider(credentials)
                .build());
        this.efs = memoize(() -> EfsClient.builder()
                .httpClient(http)
                .region(region)
                .credentialsProvider(credentials)
                .build());
        this.fsx = memoize(() -> (Object) FSxClient.builder()
                .httpClient(http)
                .region(region)
                .credentialsProvider(credentials)
                .build());
        this.s3 = memoize(() -> (Object) software.amazon.awssdk.services.s3.S3Client.builder()
                .httpClient(http)
                .region(region)
                .credentialsProvider(credentials)
                .build());
        this.cloudControl = memoize(() -> CloudControlClient.builder()
                .httpClient(http)
                .region(region)
                .credentialsProvider(credentials)
                .build());
        this.events = memoize(() -> CloudWatchEventsClient.builder()
                .httpClient(http)
                .region(region)
                .credentialsProvider(credentials)
                .build());
    }

    /**
     * Clients that never reach AWS, for SnapStart priming: every request is marshalled and signed
     * (with throwaway credentials) as usual, then answered by {@code offline}.
     */
    public static AwsClients offline(Settings settings, OfflineHttpClient offline) {
        // Through a chain, as the function's own credentials are resolved.
        return new AwsClients(
                settings,
                AwsCredentialsProviderChain.of(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("priming", "priming"))),
                offline);
    }

    /** The clients of this Lambda container, shared by every invocation. */
    public static AwsClients fromEnvironment() {
        return FROM_ENVIRONMENT.get();
    }

    @Override
    public Settings settings() {
        return settings;
    }

    @Override
    public Clock clock() {
        return Clock.systemUTC();
    }

    @Override
    public DynamoDbClient dynamoDb() {
        return dynamoDb.get();
    }

    @Override
    public EksClient eks() {
        return eks.get();
    }

    @Override
    public EfsClient efs() {
        return efs.get();
    }

    @Override
    public software.amazon.awssdk.services.s3.S3Client s3() {
        return (software.amazon.awssdk.services.s3.S3Client) s3.get();
    }

    @Override
    public FSxClient fsx() {
        return (FSxClient) fsx.get();
    }

    @Override
    public LustreFileSystems lustreFileSystems() {
        return new FsxJsonClient(http, credentials, region);
    }

    @Override
    public io.trainplane.aws.catalog.InstanceCatalog instanceCatalog() {
        return io.trainplane.aws.catalog.AwsInstanceCatalog.of(http, credentials, region, System.getenv());
    }

    @Override
    public CloudControlClient cloudControl() {
        return cloudControl.get();
    }

    @Override
    public CloudWatchEventsClient events() {
        return events.get();
    }

    /**
     * Built on first use. Not a memoized lambda like the others: linking a lambda that returns
     * {@link SfnClient} would load that type when this object is built, and the Kubernetes
     * artifact leaves Step Functions out (none of its functions starts an execution).
     */
    @Override
    public synchronized SfnClient sfn() {
        if (sfn == null) {
            sfn = SfnClient.builder()
                    .httpClient(http)
                    .region(region)
                    .credentialsProvider(credentials)
                    .build();
        }
        return sfn;
    }

    /**
     * Built on first use. Not a memoized lambda like the others: linking a lambda that returns
     * {@link ClusterAccess} would load that type when this object is built, in every function.
     */
    @Override
    public synchronized ClusterAccess clusters() {
        if (clusters == null) {
            clusters = EksClusterAccess.of(eks(), tokens);
        }
        return clusters;
    }

    /**
     * SnapStart priming of the way to a cluster's Kubernetes API, for the steps that go there:
     * offline, with its own throwaway clients (see {@link EksClusterAccess#prime}).
     */
    public void primeClusters(RunSpec sample) {
        EksClusterAccess.prime(region, sample);
    }

    /** Signed EKS tokens expire: none may survive a SnapStart restore. */
    @Override
    public void afterRestore() {
        tokens.clear();
    }

    EksTokens tokens() {
        return tokens;
    }

    static <T> Supplier<T> memoize(Supplier<T> factory) {
        return new Supplier<>() {
            private volatile T value;

            @Override
            public T get() {
                T v = value;
                if (v == null) {
                    synchronized (this) {
                        v = value;
                        if (v == null) {
                            v = factory.get();
                            value = v;
                        }
                    }
                }
                return v;
            }
        };
    }
}
