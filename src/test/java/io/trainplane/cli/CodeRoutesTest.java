package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.KubernetesModels;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.local.Faults;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalRun;
import io.trainplane.local.RunReport;
import io.trainplane.local.sim.SimulatedKubernetes;
import io.trainplane.local.sim.SimulatedS3;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.CodeDirectory;
import io.trainplane.spec.InvalidSpecException;
import io.trainplane.spec.RunSpecs;
import io.trainplane.spec.SpecProblem;
import io.trainplane.spec.WorkloadCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * workload.code beyond builtin and image: a local directory (ConfigMap route, artifacts bucket
 * route) and an s3:// prefix. Bad directories are refused with the field and the fix; each route
 * runs to SUCCEEDED in the twin, and the objects it sends validate against the Kubernetes schemas.
 */
class CodeRoutesTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static ObjectNode spec(String runId, String code) {
        ObjectNode spec = (ObjectNode) Json.read(
                """
                {"runId": "%s",
                 "cluster": {"mode": "create", "kubernetesVersion": "1.35",
                             "nodeGroup": {"instanceType": "c5.2xlarge", "nodes": 2}},
                 "training": {"workers": 2, "cpu": "6", "memory": "12Gi"},
                 "workload": {"code": "%s",
                              "commands": {"train": {"args": ["python", "train.py"]}},
                              "hyperparameters": {"epochs": 2}},
                 "evaluation": {"minAccuracy": 0.1}}
                """
                        .formatted(runId, code));
        return spec;
    }

    static Path write(Path dir, String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        return file;
    }

    /** Packs as the CLI does (spec file in {@code dir}); the problems of a refusal. */
    static List<SpecProblem> refusal(Path dir, String code) {
        try {
            CodeDirectory.pack(new WorkloadCode.Directory(code), dir);
        } catch (InvalidSpecException e) {
            return e.problems();
        }
        throw new AssertionError(code + " was packed");
    }

    @Test
    void aMissingDirectoryAFileAnEmptyDirectoryAndALinkLeavingItAreRefusedWithTheFieldAndTheFix(@TempDir Path dir)
            throws Exception {
        assertThat(refusal(dir, "nowhere").getFirst())
                .satisfies(p -> assertThat(p.pointer()).isEqualTo("/workload/code"))
                .satisfies(p -> assertThat(p.message()).contains("\"nowhere\"", "does not exist"))
                .satisfies(p -> assertThat(p.hint()).contains("\"image\"", "s3://"));
        write(dir, "train.py", "print('hi')\n");
        assertThat(refusal(dir, "train.py").getFirst().message()).contains("is a file, not a directory");
        assertThat(refusal(dir, "train.py").getFirst().hint()).contains("[\"python\", \"train.py\"]");
        Files.createDirectories(dir.resolve("empty"));
        assertThat(refusal(dir, "empty").getFirst().message()).contains("has no files");
        Path code = Files.createDirectories(dir.resolve("code"));
        write(code, "train.py", "print('hi')\n");
        Path secret = write(dir, "outside.txt", "not shipped");
        Files.createSymbolicLink(code.resolve("data.txt"), secret);
        assertThat(refusal(dir, "code").getFirst())
                .satisfies(p -> assertThat(p.message()).contains("\"data.txt\"", "outside the directory"))
                .satisfies(p -> assertThat(p.hint()).contains("copy what it names into the directory"));
        Path broken = Files.createDirectories(dir.resolve("broken"));
        write(broken, "train.py", "print('hi')\n");
        write(broken, "two\nlines.py", "");
        assertThat(refusal(dir, "broken").getFirst())
                .satisfies(p -> assertThat(p.message()).contains("\"two?lines.py\"", "control character"))
                .satisfies(p -> assertThat(p.hint()).isEqualTo("rename the file"));
    }

    @Test
    void aDirectoryOverTheCapIsRefusedAndCachesAreLeftOut(@TempDir Path dir) throws Exception {
        Path code = Files.createDirectories(dir.resolve("code"));
        write(code, "train.py", "print('hi')\n");
        write(code, "__pycache__/train.cpython-311.pyc", "cache");
        write(code, ".git/HEAD", "ref: refs/heads/main");
        var packed = CodeDirectory.pack(new WorkloadCode.Directory("code"), dir);
        assertThat(packed.files().keySet()).containsExactly("train.py");
        assertThat(packed.route()).isEqualTo(io.trainplane.spec.CodePackage.Route.CONFIGMAP);

        byte[] big = new byte[(int) (CodeDirectory.MAX_BYTES / 2) + 1];
        Files.write(code.resolve("weights-a.bin"), big);
        Files.write(code.resolve("weights-b.bin"), big);
        assertThat(refusal(dir, "code").getFirst())
                .satisfies(p -> assertThat(p.message()).contains("more than 50 MiB"))
                .satisfies(p -> assertThat(p.hint()).contains("data.s3Uri", "\"code\": \"image\""));
    }

    @Test
    void validateRefusesABadS3PrefixAndAPackageWrittenByHand() {
        ObjectNode spec = spec("bad-prefix", "s3://Not_A_Bucket/code/");
        assertThatThrownBy(() -> RunSpecs.normalize(Json.write(spec)))
                .isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.problems())
                        .anySatisfy(p -> {
                            assertThat(p.pointer()).isEqualTo("/workload/code");
                            assertThat(p.hint()).contains("s3://my-bucket/code/trainer/");
                        }));
        ObjectNode image = spec("by-hand", "image");
        ((ObjectNode) image.get("workload"))
                .putObject("package")
                .put("route", "configmap")
                .put("sha256", "0".repeat(64));
        assertThatThrownBy(() -> RunSpecs.normalize(Json.write(image)))
                .isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.problems())
                        .anySatisfy(p -> assertThat(p.pointer()).isEqualTo("/workload/package")));
    }

    @Test
    void theCliRefusesABadDirectoryBeforeCreatingAnything(@TempDir Path dir) throws Exception {
        Path spec = write(dir, "trainplane.json", Json.write(spec("missing-dir", "./src")));
        StringWriter err = new StringWriter();
        int exit = Main.commandLine()
                .setOut(new PrintWriter(new StringWriter(), true))
                .setErr(new PrintWriter(err, true))
                .execute("run", spec.toString(), "--runtime", "simulated", "--no-store");
        assertThat(exit).isEqualTo(Main.INVALID_INPUT);
        assertThat(err.toString()).contains("/workload/code", "\"./src\"", "does not exist");
    }

    /** One route's run in the twin: SUCCEEDED, and what it sent to the cluster. */
    record Ran(RunReport report, List<JsonNode> objects, String logTail) {}

    static Ran runLocally(Path specFile, ObjectNode spec, java.util.function.Consumer<LocalCloud> before)
            throws Exception {
        return runLocally(specFile, spec, before, cloud -> {});
    }

    /** As above, with {@code afterUpload} run once the CLI's delivery is done and before the run starts. */
    static Ran runLocally(
            Path specFile,
            ObjectNode spec,
            java.util.function.Consumer<LocalCloud> before,
            java.util.function.Consumer<LocalCloud> afterUpload)
            throws Exception {
        Files.writeString(specFile, Json.write(spec));
        SpecInput input = new SpecInput();
        input.path = specFile.toString();
        ObjectNode normalized = (ObjectNode) RunSpecs.normalize(Json.write(spec));
        String runId = spec.path("runId").asText();
        var code = CodeShipment.pack(input, normalized, runId, LocalCloud.artifactsBucket());
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            before.accept(cloud);
            code.ifPresent(c -> c.deliver(
                    new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock()),
                    (key, bytes) ->
                            cloud.s3().putObject(LocalCloud.artifactsBucket(), key, bytes, SimulatedS3.Transport.TLS)));
            afterUpload.accept(cloud);
            RunReport report = new LocalRun(cloud, Faults.none(), e -> {}).execute(normalized, runId);
            List<JsonNode> objects = new ArrayList<>();
            for (SimulatedKubernetes.Write write : cloud.kubernetesClusters().writes()) {
                if (!write.method().equals("PATCH")) {
                    objects.add(YAML.readTree(write.body()));
                }
            }
            var error = new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock())
                    .get(runId)
                    .error();
            return new Ran(report, objects, error == null ? null : error.logTail());
        }
    }

    static JsonNode trainingPod(List<JsonNode> objects) {
        return objects.stream()
                .filter(o -> o.path("kind").asText().equals("Job")
                        && o.at("/metadata/labels/app.kubernetes.io~1component")
                                .asText()
                                .equals("training"))
                .findFirst()
                .orElseThrow()
                .at("/spec/template/spec");
    }

    static void assertValid(List<JsonNode> objects) throws Exception {
        var verdicts = KubernetesModels.installed()
                .validate(objects.stream()
                        .filter(o -> !o.path("apiVersion").asText().startsWith("kubeflow.org/"))
                        .toList());
        assertThat(verdicts)
                .allSatisfy(v -> assertThat(v.outcome()).as(v.describe()).isEqualTo(KubernetesModels.Outcome.VALID));
    }

    @Test
    void aSmallDirectoryTravelsInTheRunsConfigMapAndTheRunSucceeds(@TempDir Path dir) throws Exception {
        write(dir, "train.py", "print('epoch 1/2 loss 1.0')\n");
        write(dir, "lib/model.py", "X = 1\n");
        Files.write(dir.resolve("vocab.bin"), new byte[] {(byte) 0xff, 0, 1, 2});
        Ran ran = runLocally(dir.resolve("trainplane.json"), spec("code-configmap", "."), cloud -> {});
        assertThat(ran.report().status())
                .as("%s %s", ran.report().error(), ran.report().cause())
                .isEqualTo("SUCCEEDED");
        JsonNode configMap = ran.objects().stream()
                .filter(o -> o.path("kind").asText().equals("ConfigMap"))
                .findFirst()
                .orElseThrow();
        assertThat(configMap.at("/data/train.py").asText()).isEqualTo("print('epoch 1/2 loss 1.0')\n");
        assertThat(configMap.at("/binaryData/vocab.bin").asText()).isEqualTo("/wABAg==");
        assertThat(configMap.path("data").has("trainplane.prepare.py")).isTrue();
        JsonNode pod = trainingPod(ran.objects());
        JsonNode trainer = pod.at("/containers/0");
        assertThat(trainer.path("workingDir").asText()).isEqualTo("/workload");
        assertThat(trainer.path("env").toString()).contains("\"TRAINPLANE_CODE_DIR\"");
        assertThat(pod.path("volumes").toString())
                .contains(
                        "{\"key\":\"0.lib.model.py\",\"path\":\"lib/model.py\"}",
                        "{\"key\":\"train.py\",\"path\":\"train.py\"}");
        assertValid(ran.objects());
    }

    @Test
    void aLargerDirectoryGoesThroughTheArtifactsBucketAndFetchCodeReadsItAsTheRunsPodIdentity(@TempDir Path dir)
            throws Exception {
        write(dir, "train.py", "print('train')\n");
        byte[] noise = new byte[CodeDirectory.ARCHIVE_BYTES + 10_000];
        new Random(7).nextBytes(noise);
        Files.write(dir.resolve("tokenizer.bin"), noise);
        Ran ran = runLocally(dir.resolve("trainplane.json"), spec("code-bucket", "."), cloud -> {});
        assertThat(ran.report().status())
                .as("%s %s", ran.report().error(), ran.report().cause())
                .isEqualTo("SUCCEEDED");
        JsonNode pod = trainingPod(ran.objects());
        JsonNode fetch = pod.at("/initContainers/0");
        assertThat(fetch.path("name").asText()).isEqualTo("fetch-code");
        assertThat(fetch.path("env").toString())
                .contains("s3://" + LocalCloud.artifactsBucket() + "/runs/tp-code-bucket/code/");
        assertThat(pod.path("serviceAccountName").asText()).isEqualTo("trainplane-run");
        assertThat(pod.path("volumes").toString()).contains("{\"emptyDir\":{},\"name\":\"workload\"}");
        assertValid(ran.objects());
    }

    /**
     * A file put beside the uploaded package (by anyone who may write the bucket) would run with the
     * run's code: fetch-code digests what it copied and the run stops before its code starts.
     */
    @Test
    void codeChangedInTheBucketAfterTheUploadFailsTheRunBeforeItRuns(@TempDir Path dir) throws Exception {
        write(dir, "train.py", "print('train')\n");
        byte[] noise = new byte[CodeDirectory.ARCHIVE_BYTES + 10_000];
        new Random(7).nextBytes(noise);
        Files.write(dir.resolve("tokenizer.bin"), noise);
        Ran ran = runLocally(dir.resolve("trainplane.json"), spec("code-planted", "."), cloud -> {}, cloud -> cloud.s3()
                .putObject(
                        LocalCloud.artifactsBucket(),
                        "runs/tp-code-planted/code/sitecustomize.py",
                        "import os\n".getBytes(StandardCharsets.UTF_8),
                        SimulatedS3.Transport.TLS));
        assertThat(ran.report().status()).isEqualTo("FAILED");
        assertThat(ran.report().error()).isEqualTo("CodeDigestMismatch");
        assertThat(ran.report().cause()).contains("CODE DIGEST MISMATCH", "not the package uploaded for this run");
        assertThat(ran.objects())
                .as("the first Job (the data Job) stopped there: no training Job was created")
                .noneMatch(o -> o.at("/metadata/labels/app.kubernetes.io~1component")
                        .asText()
                        .equals("training"));
        assertThat(ran.objects().stream()
                        .filter(o -> o.path("kind").asText().equals("Job"))
                        .findFirst()
                        .orElseThrow()
                        .at("/spec/template/spec/initContainers/0/env")
                        .toString())
                .contains(WorkloadManifests.CODE_SHA256_ENV);
    }

    @Test
    void anS3PrefixIsCopiedByFetchCodeAndAnEmptyPrefixFailsTheRunSayingSo(@TempDir Path dir) throws Exception {
        String bucket = LocalCloud.artifactsBucket();
        Ran ran = runLocally(
                dir.resolve("trainplane.json"),
                spec("code-s3", "s3://" + bucket + "/inputs/shared-code/trainer"),
                cloud -> cloud.s3()
                        .putObject(
                                bucket,
                                "inputs/shared-code/trainer/train.py",
                                "print(1)".getBytes(StandardCharsets.UTF_8),
                                SimulatedS3.Transport.TLS));
        assertThat(ran.report().status())
                .as("%s %s", ran.report().error(), ran.report().cause())
                .isEqualTo("SUCCEEDED");
        assertThat(trainingPod(ran.objects()).at("/initContainers/0/env").toString())
                .contains("s3://" + bucket + "/inputs/shared-code/trainer/");
        assertValid(ran.objects());

        Ran empty = runLocally(
                dir.resolve("trainplane.json"), spec("code-s3-empty", "s3://" + bucket + "/inputs/none/"), c -> {});
        assertThat(empty.report().status()).isEqualTo("FAILED");
        assertThat(empty.report().error()).isEqualTo("CodeFetchFailed");
        assertThat(empty.report().cause()).contains("no code under s3://" + bucket + "/inputs/none/", "aws s3 sync");
    }

    /** The command line looks at an s3:// code prefix before anything is created: a missing bucket or an empty prefix is invalid input. */
    @Test
    void theCommandLineRefusesAMissingBucketOrAnEmptyPrefixBeforeAnythingIsCreated(@TempDir Path dir) throws Exception {
        String bucket = LocalCloud.artifactsBucket();
        Path empty = dir.resolve("empty.json");
        Files.writeString(empty, Json.write(spec("code-s3-empty", "s3://" + bucket + "/inputs/none/")));
        Path missing = dir.resolve("missing.json");
        Files.writeString(missing, Json.write(spec("code-s3-missing", "s3://no-such-code-bucket/trainer/")));

        CliTest.Result nothing = CliTest.cli("run", empty.toString(), "--runtime", "simulated");
        CliTest.Result noBucket = CliTest.cli("run", missing.toString(), "--runtime", "simulated");

        assertThat(nothing.exit()).as(nothing.err()).isEqualTo(Main.INVALID_INPUT);
        assertThat(nothing.err())
                .contains("nothing is under s3://" + bucket + "/inputs/none/", "aws s3 cp --recursive");
        assertThat(noBucket.exit()).as(noBucket.err()).isEqualTo(Main.INVALID_INPUT);
        assertThat(noBucket.err()).contains("the bucket no-such-code-bucket does not exist");
        assertThat(nothing.err() + noBucket.err()).doesNotContain("CreateCluster", "Exception");
    }

    /**
     * The twin is as strict as EKS about a stock image: the custom-image example's commands name
     * /app/train.py, which pytorch/pytorch does not have and no volume holds, so that image fails
     * the run with python's words; the example's own image (yours, in ECR) is taken to have it.
     */
    @Test
    void aScriptThatTheStockImageDoesNotHaveFailsTheRunAsPythonDoes(@TempDir Path dir) throws Exception {
        ObjectNode example = (ObjectNode) Json.read(Files.readString(Path.of("examples/custom-image.json")));
        Ran yours = runLocally(dir.resolve("yours.json"), example.deepCopy(), cloud -> {});
        assertThat(yours.report().status()).as("%s", yours.report().cause()).isEqualTo("SUCCEEDED");

        ((ObjectNode) example.get("workload")).put("image", "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime");
        example.put("runId", "stock-image");
        Ran stock = runLocally(dir.resolve("stock.json"), example, cloud -> {});
        assertThat(stock.report().status()).isEqualTo("FAILED");
        assertThat(stock.logTail())
                .contains("python: can't open file '/app/train.py': [Errno 2] No such file or directory");
    }
}
