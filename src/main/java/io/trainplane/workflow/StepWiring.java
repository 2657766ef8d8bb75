package io.trainplane.workflow;

import io.trainplane.aws.RunEvents;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.aws.ec2.ReservedCapacity;
import io.trainplane.aws.efs.EfsVolumes;
import io.trainplane.aws.efs.MountTargetSecurityGroups;
import io.trainplane.aws.eks.EksAddons;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.aws.eks.EksNodegroups;
import io.trainplane.aws.eks.RunPodIdentities;
import io.trainplane.aws.eks.WarmNodegroups;
import io.trainplane.clients.Clients;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.runs.RunStore;
import io.trainplane.workflow.StartScheduledRunStep.Overlap;
import java.util.function.Supplier;

/**
 * Where each function's step is built from the function's clients, one factory per function
 * (named after it): the step gets what it uses, and nothing else.
 *
 * <p>Cold start: of the SDK clients, only the run store's DynamoDB one is asked for here (the
 * handler builds it anyway, for the timeline). Every other part reaches its client on first use:
 * the AWS parts are suppliers, and the clusters an access that asks the clients for theirs on the
 * first connect. So a function builds only the clients its invocations use, when they use them (a
 * CheckCluster that finds the log group not ready yet builds no EKS client, none builds EFS's or
 * Cloud Control's that does not call them), and the functions that ship without the Kubernetes
 * client never link a type of it: only the Kubernetes steps' factories name one.
 */
public final class StepWiring {
    private StepWiring() {}

    public static Step startRun(Clients clients) {
        RunStore store = runStore(clients);
        return new StartRunStep(
                store,
                events("StartRun", clients, store),
                clients.clock(),
                clients.settings(),
                new io.trainplane.aws.s3.ResumeCheckpoints(clients::s3),
                fileSystemTags(clients),
                clients::instanceCatalog);
    }

    /** What StartRun reads of a file system a run would adopt: EFS's or FSx's description of it. */
    static FileSystemAdoption.Lookup fileSystemTags(Clients clients) {
        return volume -> volume.type() == io.trainplane.spec.VolumeType.FSX_LUSTRE
                ? new io.trainplane.aws.fsx.LustreVolumes(clients.fsx())
                        .checkAdoptable(volume.fileSystemId())
                        .tags()
                : new EfsVolumes(clients.efs()).adoptable(volume.fileSystemId());
    }

    public static Step createCluster(Clients clients) {
        return new CreateClusterStep(runStore(clients), ec2(clients), reservedCapacity(clients), clients.settings());
    }

    public static Step checkCluster(Clients clients) {
        return new CheckClusterStep(runStore(clients), eksClusters(clients), ec2(clients), clients.settings());
    }

    public static Step createNodegroup(Clients clients) {
        return new CreateNodegroupStep(
                runStore(clients),
                reservedCapacity(clients),
                ec2(clients),
                eksClusters(clients),
                () -> new EksNodegroups(clients.eks()),
                clients.settings());
    }

    public static Step checkNodegroup(Clients clients) {
        return new CheckNodegroupStep(
                runStore(clients),
                () -> new EksNodegroups(clients.eks()),
                ec2(clients),
                eksClusters(clients),
                reservedCapacity(clients),
                clients.settings());
    }

    public static Step configureCluster(Clients clients) {
        return new ConfigureClusterStep(() -> new EksAddons(clients.eks()), clusters(clients), clients.settings());
    }

    public static Step connectCluster(Clients clients) {
        return new ConnectClusterStep(
                runStore(clients), clusters(clients), () -> new RunPodIdentities(clients.eks()), clients.settings());
    }

    public static Step scaleWorkers(Clients clients) {
        return new ScaleWorkersStep(
                runStore(clients), () -> new WarmNodegroups(clients.eks()), clusters(clients), clients.clock());
    }

    public static Step createVolume(Clients clients) {
        return new CreateVolumeStep(runStore(clients), efsVolumes(clients), clients.settings(), lustreSteps(clients));
    }

    public static Step checkVolume(Clients clients) {
        return new CheckVolumeStep(
                runStore(clients),
                efsVolumes(clients),
                () -> new MountTargetSecurityGroups(clients.efs()),
                eksClusters(clients),
                clients.settings().network(),
                lustreSteps(clients));
    }

    private static LustreVolumeSteps lustreSteps(Clients clients) {
        return new LustreVolumeSteps(
                runStore(clients),
                () -> new io.trainplane.aws.fsx.LustreVolumes(clients.fsx()),
                eksClusters(clients),
                clients.settings());
    }

    public static Step bindVolume(Clients clients) {
        return new BindVolumeStep(runStore(clients), clusters(clients));
    }

    public static Step startDataJob(Clients clients) {
        return new StartDataJobStep(runStore(clients), clusters(clients));
    }

    public static Step startTraining(Clients clients) {
        return new StartTrainingStep(runStore(clients), clusters(clients));
    }

    public static Step checkTraining(Clients clients) {
        RunStore store = runStore(clients);
        return new CheckTrainingStep(
                store,
                clusters(clients),
                clients.clock(),
                events("CheckTraining", clients, store),
                RunCostRecorder.withRegionPrices(
                        store, clients.clock(), clients.settings().region()));
    }

    public static Step startEvaluation(Clients clients) {
        return new StartEvaluationStep(runStore(clients), clusters(clients));
    }

    public static Step startOutputs(Clients clients) {
        return new StartOutputsStep(runStore(clients), clusters(clients));
    }

    public static Step checkJob(Clients clients) {
        return new CheckJobStep(runStore(clients), clusters(clients), clients.clock());
    }

    public static Step collectResults(Clients clients) {
        RunStore store = runStore(clients);
        return new CollectResultsStep(store, clusters(clients), events("CollectResults", clients, store));
    }

    public static Step recordFailure(Clients clients) {
        RunStore store = runStore(clients);
        return new RecordFailureStep(
                store,
                events("RecordFailure", clients, store),
                RunCostRecorder.withRegionPrices(
                        store, clients.clock(), clients.settings().region()));
    }

    public static Step finishRun(Clients clients) {
        RunStore store = runStore(clients);
        return new FinishRunStep(
                store,
                events("FinishRun", clients, store),
                clients.settings().stackName(),
                RunCostRecorder.withRegionPrices(
                        store, clients.clock(), clients.settings().region()));
    }

    /** With the overlap policy of {@code RETRAINING_OVERLAP}, which template.yaml sets from the RetrainingOverlap parameter. */
    public static Step startScheduledRun(Clients clients) {
        return startScheduledRun(clients, Overlap.parse(System.getenv("RETRAINING_OVERLAP")));
    }

    public static Step startScheduledRun(Clients clients, Overlap overlap) {
        return new StartScheduledRunStep(
                runStore(clients),
                () -> runEvents(clients),
                clients::sfn,
                clients::trainingPipelineArn,
                clients.clock(),
                overlap);
    }

    /** Teardown, CheckTeardown and RetryTeardown. */
    public static Step teardown(Clients clients) {
        RunStore store = runStore(clients);
        String stack = clients.settings().stackName();
        return new TeardownStep(
                store,
                clients.clock(),
                events("Teardown", clients, store),
                stack,
                new ResourceLifecycles(
                        clients::eks,
                        clients::efs,
                        clients::lustreFileSystems,
                        clients::cloudControl,
                        clients::clusters,
                        store,
                        clients.settings()));
    }

    public static Step closeRun(Clients clients) {
        RunStore store = runStore(clients);
        return new CloseRunStep(
                store,
                events("CloseRun", clients, store),
                RunCostRecorder.withRegionPrices(
                        store, clients.clock(), clients.settings().region()));
    }

    public static Step safetyNet(Clients clients) {
        return new SafetyNetStep(runStore(clients), clients::sfn, clients::cleanupStateMachineArn);
    }

    public static Step janitor(Clients clients) {
        String stack = clients.settings().stackName();
        return new JanitorStep(
                runStore(clients),
                clients.clock(),
                () -> runEvents(clients),
                () -> TaggedResources.of(clients, stack, clients.settings().stackId()),
                clients::sfn,
                clients::cleanupStateMachineArn,
                clients::trainingPipelineArn);
    }

    /** The runs table, through the clients' DynamoDB client and on their clock. */
    public static RunStore runStore(Clients clients) {
        return new RunStore(clients.dynamoDb(), clients.settings().tableName(), clients.clock());
    }

    private static RunEventPublisher events(String function, Clients clients, RunStore store) {
        return new RunEventPublisher(function, () -> runEvents(clients), store, clients.clock());
    }

    static RunEvents runEvents(Clients clients) {
        return new RunEvents(clients.events(), clients.settings().eventBusName());
    }

    /**
     * The clusters' Kubernetes APIs, reached through the clients on the first connect (they build
     * the access once and cache it).
     */
    private static ClusterAccess clusters(Clients clients) {
        return cluster -> clients.clusters().connect(cluster);
    }

    private static Supplier<EksClusters> eksClusters(Clients clients) {
        return () -> new EksClusters(clients.eks());
    }

    private static Supplier<Ec2Objects> ec2(Clients clients) {
        return () -> new Ec2Objects(clients.cloudControl());
    }

    private static Supplier<ReservedCapacity> reservedCapacity(Clients clients) {
        return () -> new ReservedCapacity(clients.cloudControl());
    }

    private static Supplier<EfsVolumes> efsVolumes(Clients clients) {
        return () -> new EfsVolumes(clients.efs());
    }
}
