package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.trainplane.aws.MotoServer;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.local.sim.SimulatedKubernetes;
import io.trainplane.runs.RunError;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.RunsTable;
import io.trainplane.runs.StepEntry;
import io.trainplane.spec.Names;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * watch and logs against moto (the stack's outputs, the runs table, the execution, the EKS
 * cluster) and, for the pods' logs, a Kubernetes API server (the mock server of local mode,
 * which serves pod logs) handed to the CLI as the cluster's API.
 */
class WatchLogsMotoTest {
    @RegisterExtension
    static final MotoServer MOTO = new MotoServer();

    static final String STACK = "trainplane-watch";
    static final String TABLE = "trainplane-watch-Runs";
    static final String CLUSTER = "warm";

    DynamoDbClient dynamo;
    CloudFormationClient cloudFormation;
    SfnClient sfn;
    EksClient eks;
    String pipeline;
    SimulatedKubernetes kubernetes;
    List<String> connected = new ArrayList<>();
    /** What happens to the run while watch sleeps, one change per sleep. */
    Deque<Runnable> whileSleeping = new ArrayDeque<>();

    int sleeps;

    @BeforeEach
    void stack() {
        MOTO.reset();
        dynamo = MOTO.client(DynamoDbClient.builder());
        cloudFormation = MOTO.client(CloudFormationClient.builder());
        sfn = MOTO.client(SfnClient.builder());
        eks = MOTO.eks();
        RunsTable.create(dynamo, TABLE);
        RunFixtures.populate(dynamo, TABLE);
        pipeline = sfn.createStateMachine(r -> r.name("TrainingPipeline-watch")
                        .roleArn(MotoServer.roleArn("sfn"))
                        .definition("{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"End\":true}}}"))
                .stateMachineArn();
        cloudFormation.createStack(r -> r.stackName(STACK)
                .templateBody(
                        """
                {"Resources": {"Handle": {"Type": "AWS::CloudFormation::WaitConditionHandle"}},
                 "Outputs": {"RunsTableName": {"Value": "%s"}, "TrainingPipelineArn": {"Value": "%s"}}}
                """
                                .formatted(TABLE, pipeline)));
        kubernetes = new SimulatedKubernetes();
    }

    @AfterEach
    void stop() {
        kubernetes.close();
    }

    CliTest.Result cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliClients aws = RunFixtures.clients(dynamo, cloudFormation, sfn);
        CliClients clients = new CliClients() {
            @Override
            public DynamoDbClient dynamoDb() {
                return dynamo;
            }

            @Override
            public CloudFormationClient cloudFormation() {
                return cloudFormation;
            }

            @Override
            public SfnClient sfn() {
                return sfn;
            }

            @Override
            public EksClient eks() {
                return eks;
            }

            @Override
            public software.amazon.awssdk.services.s3.S3Client s3() {
                throw new AssertionError("no S3 in this test");
            }

            @Override
            public String region() {
                return aws.region();
            }

            @Override
            public ClusterAccess clusters() {
                return name -> {
                    connected.add(name);
                    return kubernetes.admin();
                };
            }

            @Override
            public Map<String, String> environment() {
                return Map.of();
            }

            @Override
            public void sleep(Duration d) {
                sleeps++;
                if (whileSleeping.isEmpty()) {
                    throw new AssertionError("watch sleeps again after the run ended");
                }
                whileSleeping.pop().run();
            }
        };
        int exit = Main.commandLine(clients)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new CliTest.Result(exit, out.toString(), err.toString());
    }

    /** A run that is training, with a running execution; each sleep of watch moves it on, to SUCCEEDED. */
    void aLiveRun() {
        String arn = sfn.startExecution(
                        r -> r.stateMachineArn(pipeline).name("run-live").input("{}"))
                .executionArn();
        RunStore store = new RunStore(dynamo, TABLE, Clock.fixed(RunFixtures.T0, ZoneOffset.UTC));
        store.create("run-live", "{\"runId\":\"run-live\"}", arn);
        store.addStep(
                "run-live",
                StepEntry.started("StartRun", RunFixtures.T0).ended(RunFixtures.T0.plusSeconds(1), "ok", null));
        store.update("run-live", r -> r.withStatus(RunStatus.TRAINING).withPhase(RunPhase.TRAIN));
        whileSleeping.add(() -> {});
        whileSleeping.add(() -> store.addStep(
                "run-live",
                StepEntry.started("CheckTraining", RunFixtures.T0.plusSeconds(60))
                        .ended(RunFixtures.T0.plusSeconds(61), "ok", null)));
        whileSleeping.add(() -> {
            RunStore later = new RunStore(dynamo, TABLE, Clock.fixed(RunFixtures.T0.plusSeconds(125), ZoneOffset.UTC));
            later.addStep(
                    "run-live",
                    StepEntry.started("FinishRun", RunFixtures.T0.plusSeconds(124))
                            .ended(RunFixtures.T0.plusSeconds(125), "ok", null));
            later.update("run-live", r -> r.withStatus(RunStatus.SUCCEEDED)
                    .withPhase(RunPhase.CLEANUP)
                    .withMetric("accuracy", 0.8));
        });
    }

    @Test
    void watchFollowsARunUntilItEndsPrintingOnlyChanges() {
        aLiveRun();
        CliTest.Result r = cli("watch", "run-live", "--stack", STACK, "--interval", "0.01", "--progress", "states");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(sleeps).isEqualTo(3);
        assertThat(r.out())
                .containsSubsequence(
                        "[0:00:01] ✓ StartRun",
                        "status TRAINING (phase train)",
                        "[0:01:01] ✓ CheckTraining",
                        "[0:02:05] ✓ FinishRun",
                        "status SUCCEEDED",
                        "run run-live SUCCEEDED after 2m05s",
                        "accuracy = 0.8");
        assertThat(r.out().lines().filter(l -> l.contains("StartRun"))).hasSize(1);
    }

    @Test
    void watchPrintsOneLinePerPhaseAndEachNewEpoch() {
        aLiveRun();
        RunStore store = new RunStore(dynamo, TABLE, Clock.fixed(RunFixtures.T0, ZoneOffset.UTC));
        store.addStep(
                "run-live",
                StepEntry.started("StartTraining", RunFixtures.T0.plusSeconds(30))
                        .ended(RunFixtures.T0.plusSeconds(31), "ok", null));
        java.time.Instant since = RunFixtures.T0.plusSeconds(31);
        store.recordProgress(
                "run-live", new io.trainplane.runs.TrainingProgress(1, 4, 1.5, RunFixtures.T0.plusSeconds(41), since));
        whileSleeping.addFirst(() -> store.recordProgress(
                "run-live",
                new io.trainplane.runs.TrainingProgress(2, 4, 1.25, RunFixtures.T0.plusSeconds(51), since)));
        CliTest.Result r = cli("watch", "run-live", "--stack", STACK, "--interval", "0.01");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out())
                .containsSubsequence(
                        "[0:00:00] ▶ start",
                        "[0:00:30] ▶ train (start took 30s)",
                        "[0:00:41] epoch 1/4 loss 1.5000 ETA 30s",
                        "[0:00:51] epoch 2/4 loss 1.2500 ETA 20s",
                        "[0:02:04] ▶ cleanup (train took 1m34s)",
                        "[0:02:05] ■ SUCCEEDED (cleanup took 1s)",
                        "run run-live SUCCEEDED after 2m05s")
                .doesNotContain("✓ ", "status TRAINING");
        assertThat(r.out().lines().filter(l -> l.contains("epoch 1/4"))).hasSize(1);

        JsonNode status = Json.read(
                cli("status", "run-live", "--stack", STACK, "--output", "json").out());
        assertThat(status.path("progress").path("epoch").asInt()).isEqualTo(2);
        assertThat(status.path("progress").path("etaSeconds").asLong()).isEqualTo(20);
        assertThat(status.path("phases").get(1).path("durationSeconds").asDouble())
                .isEqualTo(94.0);
    }

    @Test
    void watchRightAfterStartWaitsForTheRecordWhileTheExecutionRuns() {
        sfn.startExecution(r -> r.stateMachineArn(pipeline).name("run-early").input("{}"));
        whileSleeping.add(() -> {});
        whileSleeping.add(() -> {
            RunStore store = new RunStore(dynamo, TABLE, Clock.fixed(RunFixtures.T0, ZoneOffset.UTC));
            store.create("run-early", "{\"runId\":\"run-early\"}", null);
        });
        whileSleeping.add(() -> {
            RunStore store = new RunStore(dynamo, TABLE, Clock.fixed(RunFixtures.T0.plusSeconds(60), ZoneOffset.UTC));
            store.update("run-early", r -> r.withStatus(RunStatus.TRAINING));
            store.update("run-early", r -> r.withStatus(RunStatus.SUCCEEDED));
        });
        CliTest.Result r = cli("watch", "run-early", "--stack", STACK, "--interval", "0.01");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).containsOnlyOnce("the execution is running and has not written the run's record yet");
        assertThat(r.out()).contains("run run-early SUCCEEDED");
        assertThat(sleeps).isEqualTo(3);
    }

    @Test
    void logsFollowPrintsTheTrainingPodsNewLinesUntilThePodEnds() {
        eks.createCluster(r ->
                r.name(CLUSTER).roleArn(MotoServer.roleArn("eks")).resourcesVpcConfig(v -> v.subnetIds("subnet-1")));
        String runId = "run-follow";
        RunStore store = new RunStore(dynamo, TABLE, Clock.systemUTC());
        store.create(runId, "{\"runId\":\"" + runId + "\"}", null);
        String namespace = new Names(runId).namespace();
        store.update(runId, r -> r.withStatus(RunStatus.TRAINING)
                .withResource(RunResources.KUBERNETES_CLUSTER, CLUSTER)
                .withResource(RunResources.NAMESPACE, namespace));
        var k8s = kubernetes.admin();
        k8s.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(namespace)
                        .endMetadata()
                        .build())
                .create();
        String job = new Names(runId).trainingJob();
        k8s.batch()
                .v1()
                .jobs()
                .inNamespace(namespace)
                .resource(new JobBuilder()
                        .withNewMetadata()
                        .withName(job)
                        .addToLabels(Names.RUN_ID_LABEL, runId)
                        .endMetadata()
                        .withNewSpec()
                        .withNewTemplate()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("trainer")
                        .withImage("x")
                        .endContainer()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build())
                .create();
        java.util.function.Function<String, io.fabric8.kubernetes.api.model.Pod> pod = phase -> new PodBuilder()
                .withNewMetadata()
                .withName(job + "-0-abc")
                .addToLabels(Names.RUN_ID_LABEL, runId)
                .addToLabels("job-name", job)
                .addToLabels(WorkloadManifests.COMPONENT, "training")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("trainer")
                .withImage("x")
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase(phase)
                .endStatus()
                .build();
        k8s.pods().inNamespace(namespace).resource(pod.apply("Running")).create();
        List<String> log = new ArrayList<>(List.of("epoch 1/3 loss 2.0000"));
        kubernetes.servingLogs((j, p) -> Optional.of(String.join("\n", log) + "\n"));
        whileSleeping.add(() -> {});
        whileSleeping.add(() -> log.add("epoch 2/3 loss 1.0000"));
        whileSleeping.add(() -> {
            log.add("epoch 3/3 loss 0.5000");
            log.add("done");
            k8s.pods().inNamespace(namespace).withName(job + "-0-abc").delete();
            k8s.pods().inNamespace(namespace).resource(pod.apply("Succeeded")).create();
        });

        CliTest.Result r = cli("logs", runId, "--stack", STACK, "--follow", "--interval", "0.01");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out())
                .containsSubsequence(
                        "== pod " + job + "-0-abc (following; Ctrl-C stops) ==",
                        "epoch 1/3 loss 2.0000",
                        "epoch 2/3 loss 1.0000",
                        "epoch 3/3 loss 0.5000",
                        "done",
                        "(pod " + job + "-0-abc Succeeded)");
        assertThat(r.out().lines().filter(l -> l.startsWith("epoch 1/3"))).hasSize(1);
        assertThat(r.out().lines().filter(l -> l.startsWith("epoch 2/3"))).hasSize(1);
        assertThat(sleeps).isEqualTo(3);
        assertThat(cli("logs", runId, "--stack", STACK, "--follow", "--output", "json")
                        .exit())
                .isEqualTo(Main.INVALID_INPUT);
    }

    @Test
    void watchAsJsonPrintsOneObjectPerChange() {
        aLiveRun();
        CliTest.Result r = cli("watch", "run-live", "--stack", STACK, "--interval", "0.01", "--output", "json");
        assertThat(r.exit()).as(r.err()).isZero();
        List<JsonNode> lines = r.out().lines().map(Json::read).toList();
        assertThat(lines)
                .extracting(n -> n.path("status").asText())
                .containsExactly("TRAINING", "TRAINING", "SUCCEEDED");
        assertThat(lines.getLast().path("steps")).hasSize(3);
    }

    @Test
    void watchExitsOneForAFailedRunAndFourForAnUnknownOne() {
        CliTest.Result bad = cli("watch", "run-bad", "--stack", STACK);
        assertThat(bad.exit()).isEqualTo(Main.FAILED);
        assertThat(bad.out()).contains("run run-bad FAILED", "InsufficientCapacity", "| line 2");

        CliTest.Result unknown = cli("watch", "nope", "--stack", STACK);
        assertThat(unknown.exit()).isEqualTo(Main.NOT_FOUND);
        assertThat(unknown.err()).contains("no run nope in stack " + STACK);
        assertThat(cli("watch", "run-ok", "--stack", "absent").exit()).isEqualTo(Main.NOT_FOUND);
        assertThat(cli("watch", "run-ok").err()).contains("--stack", "--local");
    }

    /** A run whose pods run on CLUSTER, which exists in moto's EKS; the API server serves their logs. */
    void aRunWithPods(String runId, String cluster) {
        RunStore store = new RunStore(dynamo, TABLE, Clock.systemUTC());
        store.create(runId, "{\"runId\":\"" + runId + "\"}", null);
        String namespace = new Names(runId).namespace();
        store.update(runId, r -> r.withStatus(RunStatus.FAILED)
                .withResource(RunResources.KUBERNETES_CLUSTER, cluster)
                .withResource(RunResources.NAMESPACE, namespace)
                .withError(new RunError(
                        "CheckTraining", "JobFailed", "the training job failed", "Traceback\nValueError: nan loss")));
        var k8s = kubernetes.admin();
        k8s.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(namespace)
                        .endMetadata()
                        .build())
                .create();
        String job = new Names(runId).trainingJob();
        k8s.batch()
                .v1()
                .jobs()
                .inNamespace(namespace)
                .resource(new JobBuilder()
                        .withNewMetadata()
                        .withName(job)
                        .addToLabels(Names.RUN_ID_LABEL, runId)
                        .endMetadata()
                        .withNewSpec()
                        .withNewTemplate()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("trainer")
                        .withImage("x")
                        .endContainer()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build())
                .create();
        for (String pod : List.of(job + "-0-abc", job + "-1-def")) {
            k8s.pods()
                    .inNamespace(namespace)
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName(pod)
                            .addToLabels(Names.RUN_ID_LABEL, runId)
                            .addToLabels("job-name", job)
                            .addToLabels(WorkloadManifests.COMPONENT, "training")
                            .endMetadata()
                            .withNewSpec()
                            .addNewContainer()
                            .withName("trainer")
                            .withImage("x")
                            .endContainer()
                            .endSpec()
                            .withNewStatus()
                            .withPhase("Failed")
                            .endStatus()
                            .build())
                    .create();
        }
        kubernetes.servingLogs((j, p) -> Optional.of("epoch 1 loss 2.0\nepoch 2 loss 1.0\nepoch 3 loss nan\n"
                + p.getMetadata().getName() + " exits\n"));
    }

    @Test
    void logsPrintTheFailureTailAndThePodsLogsThroughTheKubernetesApi() {
        eks.createCluster(r ->
                r.name(CLUSTER).roleArn(MotoServer.roleArn("eks")).resourcesVpcConfig(v -> v.subnetIds("subnet-1")));
        aRunWithPods("run-logs", CLUSTER);

        CliTest.Result r = cli("logs", "run-logs", "--stack", STACK, "--tail", "2");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(connected).containsExactly(CLUSTER);
        assertThat(r.out())
                .containsSubsequence(
                        "failed in CheckTraining: JobFailed",
                        "the failure's log tail",
                        "ValueError: nan loss",
                        "== pod tp-run-logs-train-0-abc (training, Failed) ==",
                        "epoch 3 loss nan",
                        "tp-run-logs-train-0-abc exits",
                        "== pod tp-run-logs-train-1-def");
        assertThat(r.out()).doesNotContain("epoch 2 loss");

        JsonNode json = Json.read(
                cli("logs", "run-logs", "--stack", STACK, "--output", "json").out());
        assertThat(json.path("cluster").asText()).isEqualTo(CLUSTER);
        assertThat(json.path("failure").path("logTail").asText()).endsWith("nan loss");
        assertThat(json.path("pods")).hasSize(2);
        assertThat(json.path("pods").get(0).path("log").asText()).startsWith("epoch 1 loss 2.0");
    }

    @Test
    void logsSayWhenTheClusterIsGone() {
        aRunWithPods("run-gone", "deleted-cluster");
        CliTest.Result r = cli("logs", "run-gone", "--stack", STACK);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("ValueError: nan loss", "cluster deleted-cluster no longer exists");
        assertThat(connected).isEmpty();

        CliTest.Result noObjects = cli("logs", "run-ok", "--stack", STACK);
        assertThat(noObjects.exit()).isZero();
        assertThat(noObjects.out()).contains("no Kubernetes objects");
        assertThat(cli("logs", "nope", "--stack", STACK).exit()).isEqualTo(Main.NOT_FOUND);
    }

    @Test
    void cancelOfAFinishedRunOnAStackStopsNothingAndNeedsTheStack() {
        CliTest.Result r = cli("cancel", "run-ok", "--table", TABLE);
        assertThat(r.exit()).isEqualTo(Main.INVALID_INPUT);
        // cancel stops an execution, which a table alone does not name: the usage offers no --table.
        assertThat(r.err()).contains("Unknown options: '--table'", "--stack=NAME", "--local");
        assertThat(cli("cancel", "--help").out()).doesNotContain("--table");
    }
}
