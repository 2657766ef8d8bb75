package io.trainplane.local;

import io.trainplane.aws.Clients;
import io.trainplane.aws.EksTokens;
import io.trainplane.aws.Settings;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.EksClusterAccess;
import io.trainplane.local.sim.CallLog;
import io.trainplane.local.sim.JobController;
import io.trainplane.local.sim.SimulatedEks;
import io.trainplane.local.sim.SimulatedEventBus;
import io.trainplane.local.sim.SimulatedKubernetes;
import io.trainplane.local.sim.SimulatedWorkload;
import io.trainplane.runs.RunsTable;
import java.time.Clock;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eks.EksClient;

/**
 * One simulated AWS account with one region, for local mode: DynamoDB Local holding the Runs
 * table, simulated EKS and EventBridge, a Kubernetes API server with its Job controller, all on
 * one simulated clock. {@link #clients()} is what the handlers get instead of {@code AwsClients}.
 */
public final class LocalCloud implements AutoCloseable {
    /** The cluster that exists in the simulated account before any run (examples/quickstart.json). */
    public static final String DEMO_CLUSTER = "trainplane-demo";
    static final Settings SETTINGS = new Settings("trainplane-runs", "trainplane", "us-east-1");

    private final SimulatedClock clock = SimulatedClock.startingNow();
    private final CallLog calls = new CallLog();
    private final LocalDynamoDb dynamoDb = LocalDynamoDb.start();
    private final SimulatedKubernetes kubernetes = new SimulatedKubernetes();
    private final SimulatedEks eks = new SimulatedEks(calls, clock);
    private final SimulatedEventBus bus = new SimulatedEventBus(calls, clock);
    private final JobController controller = new JobController(kubernetes.admin(), new SimulatedWorkload());
    private final ClusterAccess clusters;

    public LocalCloud() {
        RunsTable.create(dynamoDb.client(), SETTINGS.tableName());
        eks.addExistingCluster(DEMO_CLUSTER, kubernetes.endpoint(), "1.31");
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDLOCAL", "local-secret"));
        clusters = new EksClusterAccess(eks, new EksTokens(credentials, Region.of(SETTINGS.region()), clock));
    }

    public Clients clients() {
        return new Clients() {
            @Override public Settings settings() { return SETTINGS; }
            @Override public Clock clock() { return clock; }
            @Override public DynamoDbClient dynamoDb() { return dynamoDb.client(); }
            @Override public EksClient eks() { return eks; }
            @Override public CloudWatchEventsClient events() { return bus; }
            @Override public ClusterAccess clusters() { return clusters; }
        };
    }

    /** Lets the cluster's controllers catch up with the simulated clock. */
    public void reconcile() {
        controller.reconcile(clock.instant());
    }

    /** Everything that exists in the simulated cloud on behalf of a run. */
    public List<String> inventory() {
        return kubernetes.labeledObjects();
    }

    public SimulatedClock clock() { return clock; }
    public CallLog calls() { return calls; }
    public SimulatedEventBus bus() { return bus; }
    public SimulatedKubernetes kubernetes() { return kubernetes; }
    public SimulatedEks eks() { return eks; }

    @Override
    public void close() {
        kubernetes.close();
        dynamoDb.close();
    }
}
