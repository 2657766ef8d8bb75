package io.trainplane.local;

import io.trainplane.aws.EksTokens;
import io.trainplane.aws.Settings;
import io.trainplane.clients.Clients;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.EksClusterAccess;
import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.local.iam.AccessKeys;
import io.trainplane.local.iam.AuditLog;
import io.trainplane.local.iam.StackPrincipals;
import io.trainplane.local.iam.StackTemplate;
import io.trainplane.local.process.ProcessWorkload;
import io.trainplane.local.sim.AuthorizedDynamoDb;
import io.trainplane.local.sim.CallLog;
import io.trainplane.local.sim.CloudResource;
import io.trainplane.local.sim.EksApiServerGate;
import io.trainplane.local.sim.EksVersionCalendar;
import io.trainplane.local.sim.ExistingCluster;
import io.trainplane.local.sim.FaultPlan;
import io.trainplane.local.sim.PodBehaviour;
import io.trainplane.local.sim.PodS3;
import io.trainplane.local.sim.SimulatedCapacity;
import io.trainplane.local.sim.SimulatedCloudControl;
import io.trainplane.local.sim.SimulatedClusters;
import io.trainplane.local.sim.SimulatedEfs;
import io.trainplane.local.sim.SimulatedEks;
import io.trainplane.local.sim.SimulatedEventBus;
import io.trainplane.local.sim.SimulatedFsx;
import io.trainplane.local.sim.SimulatedKubernetes;
import io.trainplane.local.sim.SimulatedNetwork;
import io.trainplane.local.sim.SimulatedS3;
import io.trainplane.local.sim.SimulatedStepFunctions;
import io.trainplane.local.sim.SimulatedWorkload;
import io.trainplane.runs.RunsTable;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * One simulated AWS account with one region, for local mode: the twin's DynamoDB holding the Runs
 * table, simulated EKS, EFS, Cloud Control (EC2 launch templates and placement groups, log groups) and
 * EventBridge, and one Kubernetes API server per EKS cluster with its controllers and scheduler
 * ({@link SimulatedClusters}), all on one simulated clock, with
 * one call log, one {@link FaultPlan} and one {@link SimulatedNetwork}. {@link #clients()} is
 * what the handlers get instead of {@code AwsClients}.
 */
public final class LocalCloud implements AutoCloseable {
    /**
     * The cluster that exists in the simulated account before any run (examples/existing-cluster.json):
     * created by the user, with the access entry docs/deploying.md's "Using an existing cluster" asks for, and
     * what {@link ExistingCluster#demo} says is installed on it.
     */
    public static final String DEMO_CLUSTER = "trainplane-demo";
    /**
     * The long-lived cluster examples/warm-cluster.json trains on ({@link ExistingCluster#warm}): its
     * GPU node group sits at zero nodes between runs.
     */
    public static final String WARM_CLUSTER = "trainplane-warm";

    public static final String CLUSTER_ADMIN_POLICY =
            "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy";
    /** template.yaml as it deploys into the simulated account: its roles, functions and state machines. */
    static final StackTemplate TEMPLATE = StackTemplate.local();
    /** The stack name of local mode: what its runs' resources carry in {@code trainplane:stack}. */
    public static final String STACK = TEMPLATE.account().stackName();
    /** The role of the functions that use a cluster (template.yaml's ClusterWorkRole, stack output ClusterWorkRoleArn). */
    public static final String CLUSTER_WORK_ROLE_ARN =
            TEMPLATE.roles().get("ClusterWorkRole").arn();
    /** The stack's state machines by their logical ids, and their ARNs in the simulated account. */
    public static final String PIPELINE_MACHINE = "TrainingPipeline";

    public static final String CLEANUP_MACHINE = "Cleanup";
    public static final String PIPELINE_ARN =
            TEMPLATE.stateMachines().get(PIPELINE_MACHINE).arn();
    public static final String CLEANUP_ARN =
            TEMPLATE.stateMachines().get(CLEANUP_MACHINE).arn();
    /** What the functions know of their stack: template.yaml's environment variables, resolved. */
    static final Settings SETTINGS = settings(TEMPLATE);

    private final SimulatedClock clock;
    private final CallLog calls = new CallLog();
    private final FaultPlan faults = new FaultPlan();
    private final AuditLog iam = new AuditLog(StackPrincipals.authorizer(TEMPLATE.policies()));
    /** Each caller's credentials: what signs its EKS tokens, and how the API server knows who signed. */
    private final AccessKeys keys = new AccessKeys();

    private final LocalDynamoDb dynamoDb;
    private final AuthorizedDynamoDb runsTable;
    private final boolean ownsDynamoDb;
    private final PodBehaviour workload;
    /** Each EKS cluster's Kubernetes: API server, controllers, scheduler. */
    private final SimulatedClusters kubernetes;
    /** The stack's VPC: EKS adds each cluster's security group to it, EFS checks mount targets against it. */
    private final SimulatedNetwork network = SimulatedNetwork.stack();
    /** The account's capacity reservations: Cloud Control reads them, node groups launch into them. */
    private final SimulatedCapacity capacity;

    private final SimulatedCloudControl cloudControl;
    private final SimulatedEks eks;
    private final SimulatedEfs efs;
    private final SimulatedFsx fsx;
    private final io.trainplane.local.sim.SimulatedInstanceCatalog instanceCatalog;
    private final SimulatedEventBus bus;
    private final SimulatedStepFunctions stepFunctions;
    /** The stack's buckets (the artifacts bucket), created with the stack as CloudFormation would. */
    private final SimulatedS3 s3;
    /** The account's Secrets Manager secrets and SSM parameters, which runs' pods read by reference. */
    private final io.trainplane.local.sim.SimulatedSecrets secrets;

    private final ClusterAccess clusters;
    private final EksApiServerGate apiServerGate;

    /**
     * A cloud whose clock starts at {@code start}: a local run's is now (EKS's calendar then judges
     * the versions as AWS would today), a test's a fixed instant, so that no test depends on the day
     * it runs.
     */
    public LocalCloud(Instant start) {
        this(start, new SimulatedWorkload());
    }

    /** A cloud whose pods do what {@code workload} says: simulated, or real local processes. */
    public LocalCloud(Instant start, PodBehaviour workload) {
        this(start, workload, LocalDynamoDb.start(), true);
    }

    /**
     * A cloud of its own (clock, simulated services, Kubernetes) whose Runs table lives in a
     * database of the twin's DynamoDB shared with other clouds, for many concurrent runs against one table: the
     * table must exist ({@link RunsTable#create}); closing this cloud leaves the database running.
     */
    public LocalCloud(Instant start, PodBehaviour workload, LocalDynamoDb shared) {
        this(start, workload, shared, false);
    }

    private LocalCloud(Instant start, PodBehaviour workload, LocalDynamoDb dynamoDb, boolean ownsDynamoDb) {
        this.clock = new SimulatedClock(start.truncatedTo(ChronoUnit.SECONDS));
        this.capacity = SimulatedCapacity.stack(clock.instant());
        this.cloudControl = new SimulatedCloudControl(calls, clock, faults, iam).reading(network, capacity);
        this.efs = new SimulatedEfs(calls, clock, faults, iam, network);
        this.fsx = new SimulatedFsx(calls, clock, faults, iam, network);
        this.instanceCatalog = new io.trainplane.local.sim.SimulatedInstanceCatalog(calls, faults, iam, region());
        this.bus = new SimulatedEventBus(calls, clock, faults, iam);
        this.stepFunctions = new SimulatedStepFunctions(calls, clock, faults, iam);
        this.s3 = new SimulatedS3(calls, clock, faults, iam);
        this.dynamoDb = dynamoDb;
        this.runsTable = new AuthorizedDynamoDb(dynamoDb.client(), iam);
        this.ownsDynamoDb = ownsDynamoDb;
        this.workload = workload;
        this.kubernetes = new SimulatedClusters(workload, clock)
                .mountingFrom(efs::mountTargetZones)
                // Nodes pull private ECR images as their node role, judged by the account's IAM, and
                // Docker Hub's anonymously, through the VPC's one NAT address.
                .pullingFrom(io.trainplane.local.sim.ImagePulls.Registries.all(
                        new io.trainplane.local.sim.EcrPulls(TEMPLATE, iam),
                        new io.trainplane.local.sim.DockerHubPulls(clock)));
        this.eks = new SimulatedEks(calls, clock, faults, iam, kubernetes)
                .sharing(network)
                .launchingInto(capacity, cloudControl)
                .trustingPods(
                        TEMPLATE.rolesTrustedBy("pods.eks.amazonaws.com", List.of("sts:AssumeRole", "sts:TagSession")));
        TEMPLATE.buckets().values().forEach(s3::createStackBucket);
        // The run's pods reach S3 with the role of their service account's Pod Identity association.
        this.secrets = new io.trainplane.local.sim.SimulatedSecrets(calls, iam, TEMPLATE.account());
        PodS3 podS3 = new PodS3(s3, eks, TEMPLATE).readingSecretsFrom(secrets);
        switch (workload) {
            case SimulatedWorkload simulated -> simulated.storingOutputsIn(podS3);
            case ProcessWorkload processes -> processes.storingOutputsIn(podS3);
            default -> {}
        }
        if (ownsDynamoDb) {
            RunsTable.create(dynamoDb.client(), SETTINGS.tableName());
        }
        apiServerGate = new EksApiServerGate(eks, keys, clock);
        kubernetes.guardedBy(apiServerGate);
        // The demo cluster runs what a cluster created on the clock's day would: the default version.
        String version = EksVersionCalendar.defaultVersion(clock.instant())
                .orElseThrow(() -> new IllegalStateException("no Kubernetes version EKS supports on " + clock.instant()
                        + ": update " + "src/main/resources/io/trainplane/local/sim/eks-kubernetes-versions.json"));
        addExistingCluster(ExistingCluster.demo(DEMO_CLUSTER, version));
        addExistingCluster(ExistingCluster.warm(WARM_CLUSTER, version));
        clusters = new CallerClusterAccess(caller -> new EksClusterAccess(
                eks,
                new EksTokens(
                        StaticCredentialsProvider.create(keys.keyOf(caller).credentials()),
                        Region.of(SETTINGS.region()),
                        clock)));
        eks.deliverControlPlaneLogsTo(cloudControl::controlPlaneLogsDelivered);
    }

    /**
     * A cluster that exists in the account before any run, as {@code existing} describes it, whose
     * access entries let the stack's cluster-work role administer it (as the demo cluster's do).
     */
    public void addExistingCluster(ExistingCluster existing) {
        kubernetes.addExisting(existing, eks);
        eks.addExistingAccessEntry(existing.name(), CLUSTER_WORK_ROLE_ARN, CLUSTER_ADMIN_POLICY);
    }

    /** A cloud whose AWS services carry the given faults ({@link Faults#awsFailures()}, {@link Faults#awsThrottles()}). */
    public LocalCloud(Instant start, Faults faults) {
        this(start);
        apply(faults);
    }

    /**
     * Arms the AWS faults of {@code faults} in this cloud's {@link FaultPlan}: every call of an
     * {@code awsFailures} operation fails, the next call of an {@code awsThrottles} one is throttled.
     * A cluster fault goes to the simulated workload and to the clusters. Faults by state name are the Lambda layer's ({@link LocalLambdas}), not the cloud's.
     */
    public LocalCloud apply(Faults faults) {
        // The Lambda service's own faults are the Lambda layer's (LocalLambdas), not the account's.
        faults.awsFailures().stream().filter(f -> !LambdaFault.isLambda(f)).forEach(this.faults::fail);
        faults.awsThrottles().forEach(this.faults::throttle);
        if (faults.clusterFault() != null) {
            switch (workload) {
                case SimulatedWorkload simulated -> simulated.inject(faults.clusterFault());
                case ProcessWorkload processes ->
                    processes.interrupt(faults.clusterFault(), faults.interruptAfterEpochs());
                default ->
                    throw new IllegalArgumentException("cluster faults are simulated: run with --runtime simulated");
            }
            kubernetes.inject(faults.clusterFault(), faults.interruptAfterEpochs());
        }
        return this;
    }

    /** The simulated account's one Region. */
    public static String region() {
        return SETTINGS.region();
    }

    public Clients clients() {
        return new Clients() {
            @Override
            public Settings settings() {
                return SETTINGS;
            }

            @Override
            public Clock clock() {
                return clock;
            }

            @Override
            public DynamoDbClient dynamoDb() {
                return runsTable;
            }

            @Override
            public EksClient eks() {
                return eks;
            }

            @Override
            public EfsClient efs() {
                return efs;
            }

            @Override
            public FSxClient fsx() {
                return fsx;
            }

            @Override
            public software.amazon.awssdk.services.s3.S3Client s3() {
                return new io.trainplane.local.sim.SimulatedS3Client(s3);
            }

            @Override
            public io.trainplane.aws.catalog.InstanceCatalog instanceCatalog() {
                return instanceCatalog;
            }

            @Override
            public io.trainplane.aws.fsx.LustreFileSystems lustreFileSystems() {
                return new io.trainplane.aws.fsx.SdkLustreFileSystems(fsx);
            }

            @Override
            public CloudControlClient cloudControl() {
                return cloudControl;
            }

            @Override
            public CloudWatchEventsClient events() {
                return bus;
            }

            @Override
            public ClusterAccess clusters() {
                return clusters;
            }

            @Override
            public SfnClient sfn() {
                return stepFunctions;
            }

            @Override
            public String cleanupStateMachineArn() {
                return CLEANUP_ARN;
            }

            @Override
            public String trainingPipelineArn() {
                return PIPELINE_ARN;
            }
        };
    }

    /** Lets every cluster's nodes, scheduler and controllers catch up with the simulated clock. */
    public void reconcile() {
        kubernetes.reconcile(eks);
    }

    /**
     * Everything that exists in the simulated cloud on behalf of a run: AWS resources tagged
     * {@code trainplane:run-id} ({@code eks:cluster/…}, {@code efs:file-system/…},
     * {@code ec2:launch-template/…}, …) and Kubernetes objects labeled with a run
     * ({@code kubernetes:Kind/namespace/name}), sorted. Pre-existing clusters are not listed.
     */
    public List<String> inventory() {
        return Stream.concat(
                        Stream.of(eks, efs, fsx, cloudControl).flatMap(service -> service.runResources().stream()),
                        kubernetes.labeledObjects().stream())
                .sorted()
                .toList();
    }

    /** Every AWS resource that exists in the account, a run's or not, with its tags. */
    public List<CloudResource> awsResources() {
        return Stream.of(eks, efs, fsx, cloudControl)
                .flatMap(service -> service.resources().stream())
                .sorted()
                .toList();
    }

    /** DefinitionSubstitutions of the state machine {@code machine} ({@link #PIPELINE_MACHINE}), as template.yaml resolves them. */
    public static Map<String, String> substitutions(String machine) {
        return TEMPLATE.stateMachines().get(machine).substitutions();
    }

    /** The stack this account runs. */
    public StackTemplate stack() {
        return TEMPLATE;
    }

    /** What the local stack lets one run spend: template.yaml's defaults of its ceilings, as StartRun applies them. */
    public static io.trainplane.aws.RunCeilings ceilings() {
        return SETTINGS.ceilings();
    }

    private static Settings settings(StackTemplate stack) {
        Map<String, String> environment =
                new HashMap<>(stack.functions().get("CreateClusterFunction").environment());
        environment.put("AWS_REGION", stack.account().region());
        return Settings.fromMap(environment);
    }

    /** The tags of the local stack's run {@code runId}, as its runs put them on what they create. */
    public static io.trainplane.aws.RunTags runTags(String runId) {
        return io.trainplane.aws.RunTags.of(SETTINGS, new io.trainplane.spec.Names(runId));
    }

    /** The Runs table's name in every local cloud. */
    /** The local stack's artifacts bucket. */
    public static String artifactsBucket() {
        return SETTINGS.artifactsBucket();
    }

    public static String tableName() {
        return SETTINGS.tableName();
    }

    public SimulatedClock clock() {
        return clock;
    }

    public CallLog calls() {
        return calls;
    }

    public SimulatedEventBus bus() {
        return bus;
    }

    /** The account's S3: the stack's artifacts bucket ({@link Settings#artifactsBucket()}). */
    public SimulatedS3 s3() {
        return s3;
    }

    /** The account's secrets and SSM parameters: put one here for a run's commands.*.env to reference. */
    public io.trainplane.local.sim.SimulatedSecrets secrets() {
        return secrets;
    }

    public SimulatedStepFunctions stepFunctions() {
        return stepFunctions;
    }

    /** The API server of the cluster named {@code clusterName}, while the cluster exists. */
    public SimulatedKubernetes kubernetes(String clusterName) {
        return kubernetes
                .cluster(clusterName)
                .orElseThrow(
                        () -> new IllegalArgumentException("no cluster " + clusterName + " in the simulated account"))
                .kubernetes();
    }

    /** Every cluster's Kubernetes. */
    public SimulatedClusters kubernetesClusters() {
        return kubernetes;
    }

    public SimulatedEks eks() {
        return eks;
    }

    public SimulatedEfs efs() {
        return efs;
    }

    public io.trainplane.local.sim.SimulatedInstanceCatalog instanceCatalog() {
        return instanceCatalog;
    }

    public SimulatedFsx fsx() {
        return fsx;
    }

    public SimulatedNetwork network() {
        return network;
    }

    public SimulatedCapacity capacity() {
        return capacity;
    }

    public SimulatedCloudControl cloudControl() {
        return cloudControl;
    }

    public FaultPlan faults() {
        return faults;
    }
    /** Who the clusters' API server refused, and why (EKS's authenticator log). */
    public EksApiServerGate apiServerGate() {
        return apiServerGate;
    }
    /** Every IAM decision made in this account so far. */
    public AuditLog iam() {
        return iam;
    }

    @Override
    public void close() {
        iam.archive();
        kubernetes.close();
        if (ownsDynamoDb) {
            dynamoDb.close();
        }
    }
}
