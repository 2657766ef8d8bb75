package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.core.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CliTest {
    @TempDir
    Path dir;

    record Result(int exit, String out, String err) {}

    /** The local store of this JVM's test runs: never the working directory's .trainplane/. */
    static final Path STORE = tempStore();

    static Path tempStore() {
        try {
            Path store = Files.createTempDirectory("trainplane-store");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try (var files = Files.walk(store)) {
                    files.sorted(java.util.Comparator.reverseOrder())
                            .forEach(f -> f.toFile().delete());
                } catch (IOException e) {
                    // a temporary directory: the system cleans it up eventually
                }
            }));
            return store;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Result cli(String... args) {
        return cli(io.trainplane.TestTime.clock(), args);
    }

    /** The command line on {@code clock}: the day specs are checked for. */
    static Result cli(java.time.Clock clock, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliClients clients = RunFixtures.withClock(
                RunFixtures.withEnvironment(
                        CliClients.standard(),
                        java.util.Map.of(io.trainplane.local.LocalStore.HOME_VARIABLE, STORE.toString()),
                        () -> {}),
                clock);
        int exit = Main.commandLine(clients)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new Result(exit, out.toString(), err.toString());
    }

    Path file(String content) throws IOException {
        Path f = Files.createTempFile(dir, "spec", ".json");
        Files.writeString(f, content);
        return f;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            wrong type        | {"cluster": {"mode": "existing", "name": "c"}, "training": {"workers": "two"}}  | /training/workers
            out of range      | {"cluster": {"mode": "existing", "name": "c"}, "training": {"workers": 0}}      | /training/workers
            unknown field     | {"cluster": {"mode": "existing", "name": "c"}, "trainig": {}}                   | trainig
            bad runId         | {"runId": "Bad_Id", "cluster": {"mode": "existing", "name": "c"}}               | /runId
            missing required  | {"training": {}}                                                                | cluster
            not JSON          | {"cluster": {                                                                   | JSON
            unknown version   | {"cluster": {"mode": "create", "kubernetesVersion": "1.99", "nodeGroup": {"instanceType": "c5.xlarge", "nodes": 1}}} | /cluster/kubernetesVersion
            empty             | ''                                                                              | empty
            """)
    void malformedSpecsExitTwoNamingTheFieldWithoutAStackTrace(String what, String spec, String named)
            throws IOException {
        for (String command : new String[] {"validate", "plan", "run"}) {
            Result r = cli(command, file(spec).toString());
            assertThat(r.exit()).as(command + ": " + what).isEqualTo(2);
            assertThat(r.err()).contains(named).doesNotContain("Exception", "\tat ");
            assertThat(r.out()).isEmpty();
        }
    }

    @Test
    void aMissingFileIsInvalidInput() {
        Result r = cli("run", dir.resolve("absent.json").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no such file");
    }

    @Test
    void anUnknownStateForFaultInjectionIsInvalidInput() {
        Result r = cli("run", "examples/quickstart.json", "--fail-at", "NoSuchState");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("NoSuchState", "CheckTraining");
    }

    @Test
    void validatePrintsTheSpecWithItsDefaults() {
        Result r = cli("validate", "examples/quickstart.json", "--output", "json");
        assertThat(r.exit()).isZero();
        var json = Json.read(r.out());
        assertThat(json.path("valid").asBoolean()).isTrue();
        assertThat(json.at("/spec/training/launcher").asText()).isEqualTo("indexed-job");
    }

    @Test
    void planPrintsTheManifestsAndCreatesNothing() {
        Result r = cli("plan", "examples/quickstart.json");
        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .contains("Job tp-quickstart-train: 2 pods (Indexed)", "torchrun", "Namespace tp-quickstart");
    }

    @Test
    void runPrintsOneJsonSummaryAndExitsZeroOnSuccess() {
        Result r = cli("run", "examples/quickstart.json", "--output", "json");
        assertThat(r.exit()).isZero();
        var json = Json.read(r.out());
        assertThat(json.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(json.path("resources").path("remaining")).isEmpty();
        assertThat(json.has("events") && json.has("calls") && json.has("stateTransitions") && json.has("metrics"))
                .isTrue();
        assertThat(r.err()).contains("▶ start", "▶ train (data took", "epoch 10/10 loss", "■ execution succeeded");
    }

    @Test
    void aFailedRunExitsOne() {
        Result r = cli("run", "examples/quickstart.json", "--output", "json", "--fail-at", "StartTraining");
        assertThat(r.exit()).isEqualTo(1);
        var json = Json.read(r.out());
        assertThat(json.path("status").asText()).isEqualTo("FAILED");
        assertThat(json.path("failedState").asText()).isEqualTo("StartTraining");
    }

    @Test
    void anExistingClusterRunSucceeds() {
        Result r = cli("run", "examples/existing-cluster.json", "--output", "json");
        assertThat(r.exit()).isZero();
        var json = Json.read(r.out());
        assertThat(json.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(json.at("/calls/eks:CreateCluster").isMissingNode()).isTrue();
        assertThat(json.path("resources").path("remaining")).isEmpty();
    }

    @Test
    void anAwsFaultFailsTheRunAndAThrottleDoesNot() {
        Result fault = cli("run", "examples/quickstart.json", "--output", "json", "--fault", "eks:CreateNodegroup");
        assertThat(fault.exit()).isEqualTo(1);
        // The system node group is asked for first, by CreateNodegroup (the workers' waits for its launch template).
        assertThat(Json.read(fault.out()).path("failedState").asText()).isEqualTo("CreateNodegroup");
        assertThat(Json.read(fault.out()).path("resources").path("remaining")).isEmpty();

        Result throttle =
                cli("run", "examples/quickstart.json", "--output", "json", "--throttle", "efs:CreateMountTarget");
        assertThat(throttle.exit()).isZero();
    }

    @Test
    void anUnknownAwsOperationIsInvalidInput() {
        Result r = cli("run", "examples/quickstart.json", "--fault", "eks:CreateClustr");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("CreateClustr").doesNotContain("\tat ");
    }

    @Test
    void planShowsTheClusterTheVolumeAndTheirKubernetesObjects() {
        Result r = cli("plan", "examples/quickstart.json");
        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .contains(
                        "EKS cluster tp-quickstart-eks",
                        "EKS node group tp-quickstart-system (system: CoreDNS, add-on controllers, the data job):"
                                + " 1 × m5.large, ON_DEMAND",
                        "EKS node group tp-quickstart-nodes (workers: training and evaluation): 2 × c5.2xlarge",
                        "nodes: trainplane.io/node-pool=system",
                        "EFS file system",
                        "PersistentVolume tp-quickstart-efs: efs.csi.aws.com",
                        "PersistentVolumeClaim shared");
    }

    @Test
    void planPutsACapacityBlockNodeGroupInItsReservationsZoneWithoutAPlacementGroup() {
        Result r = cli("plan", "examples/multi-node-efa.json");
        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .contains(
                        "2 × p4d.24xlarge, CAPACITY_BLOCK",
                        "in the stack's subnets of the reservation's Availability Zone",
                        "capacity reservation cr-0123456789abcdef0, 4 EFA interfaces",
                        "AWS EFA device plugin DaemonSet in kube-system",
                        "vpc.amazonaws.com/efa 4")
                .doesNotContain("placement group");
    }

    @Test
    void planShowsTheCheckpointARunStartsFromAndTheDataPodsFetch() throws IOException {
        Path spec = file("{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}, \"volume\": {\"type\": \"efs\"},"
                + " \"training\": {\"resumeFrom\": \"nightly-8\"}}");
        Result r = cli("plan", spec.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out())
                .contains(
                        "S3 read of the checkpoint nightly-8 (a run ID: StartRun takes the checkpoint that run's"
                                + " outputs kept)",
                        "init fetch-checkpoint: image",
                        "ServiceAccount trainplane-run");
    }

    @Test
    void planPrintsThePyTorchJobWhenThatIsTheLauncher() throws IOException {
        Path spec = file(
                "{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}, \"training\": {\"launcher\": \"pytorchjob\", \"workers\": 2}}");
        Result r = cli("plan", spec.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("PyTorchJob ", "  Master: 1 pod", "  Worker: 1 pod", "prepare.py");
        var json = Json.read(cli("plan", "--output", "json", spec.toString()).out());
        var pyTorchJob = java.util.stream.StreamSupport.stream(
                        json.path("kubernetes").spliterator(), false)
                .filter(m -> m.path("kind").asText().equals("PyTorchJob"))
                .findFirst()
                .orElseThrow();
        assertThat(pyTorchJob.path("apiVersion").asText()).isEqualTo("kubeflow.org/v1");
        assertThat(pyTorchJob.at("/spec/elasticPolicy/rdzvBackend").asText()).isEqualTo("c10d");
    }

    @Test
    void planPrintsTheMpiJobWithAWorkerReplicaPerWorker() throws IOException {
        Path spec = file("{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}, \"workload\": {\"image\":"
                + " \"horovod/horovod:0.28.1\"}, \"training\": {\"launcher\": \"mpijob\", \"workers\": 3,"
                + " \"procsPerWorker\": 2}}");
        Result r = cli("plan", spec.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("MPIJob ", "slotsPerWorker 2", "  Launcher: 1 pod", "  Worker: 3 pods");
        var json = Json.read(cli("plan", "--output", "json", spec.toString()).out());
        var mpiJob = java.util.stream.StreamSupport.stream(
                        json.path("kubernetes").spliterator(), false)
                .filter(m -> m.path("kind").asText().equals("MPIJob"))
                .findFirst()
                .orElseThrow();
        assertThat(mpiJob.path("apiVersion").asText()).isEqualTo("kubeflow.org/v2beta1");
        assertThat(mpiJob.at("/spec/mpiReplicaSpecs/Worker/replicas").asInt()).isEqualTo(3);
        assertThat(io.trainplane.kubernetes.KubeflowCrds.loaded().validate(mpiJob))
                .isEmpty();
    }

    @Test
    void runWithAClusterFaultFailsNamingTheCause() {
        Result r = cli("run", "examples/quickstart.json", "--output", "json", "--cluster-fault", "image-pull");
        assertThat(r.exit()).isEqualTo(1);
        var json = Json.read(r.out());
        assertThat(json.path("failedState").asText()).isEqualTo("CheckTraining");
        assertThat(json.path("error").asText() + json.path("cause").asText()).contains("ImagePullFailed");
        assertThat(json.path("resources").path("remaining")).isEmpty();

        Result unknown = cli("run", "examples/quickstart.json", "--cluster-fault", "meteor");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("meteor", "crash-loop");
    }

    @Test
    void anInterruptionStrikesAfterTheEpochsAskedForAndOnlyWithinTheTraining() {
        Result later = cli("run", "examples/quickstart.json", "--output", "json", "--cluster-fault", "node-lost@8");
        assertThat(later.exit()).as(later.err()).isZero();
        var json = Json.read(later.out());
        assertThat(json.path("metrics").path("restarts").asInt()).isEqualTo(1);
        // The node goes mid-epoch 9: the epochs of the checkpoints written by then are kept.
        assertThat(json.path("metrics").path("resumedFromEpoch").asInt()).isEqualTo(8);

        Result beyond = cli("run", "examples/quickstart.json", "--cluster-fault", "node-lost@10");
        assertThat(beyond.exit()).isEqualTo(2);
        assertThat(beyond.err()).contains("from 1 to 9", "training.epochs 10").doesNotContain("Exception");

        Result notAnInterruption = cli("run", "examples/quickstart.json", "--cluster-fault", "image-pull@2");
        assertThat(notAnInterruption.exit()).isEqualTo(2);
        assertThat(notAnInterruption.err()).contains("only node-lost and spot-interruption take @<epochs>");

        Result simulatedOnly =
                cli("run", "examples/quickstart.json", "--runtime", "process", "--cluster-fault", "image-pull");
        assertThat(simulatedOnly.exit()).isEqualTo(2);
        assertThat(simulatedOnly.err()).contains("image-pull is simulated", "node-lost and spot-interruption");
    }

    @Test
    void theProcessRuntimeInterruptsOnlyTheIndexedJobsTraining(@TempDir Path dir) throws Exception {
        var spec = (com.fasterxml.jackson.databind.node.ObjectNode)
                Json.read(Files.readString(Path.of("examples/quickstart.json")));
        ((com.fasterxml.jackson.databind.node.ObjectNode) spec.get("training")).put("launcher", "pytorchjob");
        Path file = dir.resolve("pytorchjob.json");
        Files.writeString(file, Json.write(spec));

        Result refused = cli("run", file.toString(), "--runtime", "process", "--cluster-fault", "node-lost");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err())
                .contains("Indexed Job's training only", "--runtime simulated")
                .doesNotContain("Exception");
    }

    @Test
    void anInterruptionIsRefusedForAnMpiJobRatherThanNotStriking() {
        Result refused = cli("run", "examples/mpijob.json", "--cluster-fault", "node-lost");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err())
                .contains("not simulated for training.launcher mpijob")
                .doesNotContain("Exception");
    }

    @Test
    void whenCleanupGivesUpTheSummaryAndStatusNameWhatIsLeftAndWhatRemovesIt(@TempDir Path store) {
        Result r = cli(
                "run",
                "examples/quickstart.json",
                "--runtime",
                "simulated",
                "--output",
                "json",
                "--fault",
                "efs:DeleteMountTarget",
                "--store",
                store.toString());
        assertThat(r.exit()).isEqualTo(1);
        var json = Json.read(r.out());
        List<String> remaining = new ArrayList<>();
        json.path("resources").path("remaining").forEach(n -> remaining.add(n.asText()));
        List<String> named = new ArrayList<>();
        json.path("cleanup")
                .path("leftBehind")
                .forEach(n ->
                        named.add(n.path("kind").asText() + "/" + n.path("id").asText()));
        assertThat(remaining)
                .anyMatch(ref -> ref.startsWith("efs:mount-target/"))
                .anyMatch(ref -> ref.startsWith("efs:file-system/"));
        assertThat(named).containsExactlyInAnyOrderElementsOf(remaining);
        assertThat(json.path("cleanup").path("command").asText())
                .isEqualTo("trainplane cleanup quickstart --stack trainplane");

        Result status = cli("status", "quickstart", "--store", store.toString());
        assertThat(status.exit()).isZero();
        remaining.forEach(ref -> assertThat(status.out()).contains("left:       " + ref));
        assertThat(status.out())
                .as("what the run still holds is what it left behind")
                .containsPattern("holds:      .*efs:file-system/")
                .doesNotContain("holds:      nothing");
        assertThat(status.out()).contains("removed by: the janitor", "delete now: trainplane cleanup quickstart");
        Result statusJson = cli("status", "quickstart", "--store", store.toString(), "--output", "json");
        assertThat(Json.read(statusJson.out())
                        .path("error")
                        .path("cleanup")
                        .path("leftBehind")
                        .size())
                .isEqualTo(remaining.size());

        Result cleanup = cli("cleanup", "quickstart", "--store", store.toString());
        assertThat(cleanup.exit()).isZero();
        assertThat(cleanup.out()).contains("simulated account", "nothing is left to delete");
    }

    @Test
    void lostEventsAreWarningsInTheSummaryAndInStatus(@TempDir Path store) {
        Result r = cli(
                "run",
                "examples/quickstart.json",
                "--runtime",
                "simulated",
                "--output",
                "json",
                "--fault",
                "events:PutEvents",
                "--store",
                store.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        var json = Json.read(r.out());
        assertThat(json.path("events")).isEmpty();
        List<String> warnings = new ArrayList<>();
        json.path("warnings").forEach(w -> warnings.add(w.asText()));
        assertThat(warnings).hasSize(5).anySatisfy(w -> assertThat(w)
                .startsWith("event 'Run Succeeded' from FinishRun was not published"));

        Result status = cli("status", "quickstart", "--store", store.toString());
        assertThat(status.out().lines().filter(l -> l.startsWith("warning:"))).hasSize(5);
        var statusJson = Json.read(cli("status", "quickstart", "--store", store.toString(), "--output", "json")
                .out());
        assertThat(statusJson.path("lostEvents").findValuesAsText("step"))
                .containsExactly("StartRun", "CheckTraining", "CollectResults", "Teardown", "FinishRun");
    }
}
