package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.local.process.PythonRuntime;
import io.trainplane.workload.TorchEnvironment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/** {@code trainplane init}, then what the README tells a user to do with what it wrote. */
class InitCommandTest {
    record Result(int exit, String out, String err) {}

    /** The CLI with {@code environment} as its environment variables (no AWS is called: init and run are local). */
    static Result cli(Map<String, String> environment, String... args) {
        CliClients standard = CliClients.standard();
        CliClients clients = new CliClients() {
            @Override
            public DynamoDbClient dynamoDb() {
                return standard.dynamoDb();
            }

            @Override
            public CloudFormationClient cloudFormation() {
                return standard.cloudFormation();
            }

            @Override
            public SfnClient sfn() {
                return standard.sfn();
            }

            @Override
            public EksClient eks() {
                return standard.eks();
            }

            @Override
            public software.amazon.awssdk.services.s3.S3Client s3() {
                return standard.s3();
            }

            @Override
            public String region() {
                return "us-east-1";
            }

            @Override
            public Map<String, String> environment() {
                return environment;
            }

            @Override
            public java.time.Clock clock() {
                return io.trainplane.TestTime.clock();
            }
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.commandLine(clients)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new Result(exit, out.toString(), err.toString());
    }

    @Test
    void initWritesAValidStarterAndReplacesNothingWithoutForce(@TempDir Path temp) throws Exception {
        Path dir = temp.resolve("my-model");
        Result first = cli(System.getenv(), "init", dir.toString());
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains("trainplane run " + dir.resolve("trainplane.json") + " --runtime process");
        assertThat(dir.resolve("train.py")).content().contains("epoch {epoch}/{args.epochs} loss", "metrics.json");
        assertThat(cli(
                                System.getenv(),
                                "validate",
                                dir.resolve("trainplane.json").toString())
                        .exit())
                .isZero();
        Result plan =
                cli(System.getenv(), "plan", dir.resolve("trainplane.json").toString());
        assertThat(plan.out())
                .contains(
                        "route configmap: 3 files",
                        "--no-python python train.py --epochs 15 --lr 0.05",
                        "command (in /workload): python prepare.py",
                        "image pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime");

        Files.writeString(dir.resolve("train.py"), "# mine\n");
        Result again = cli(System.getenv(), "init", dir.toString());
        assertThat(again.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(again.err()).contains("already has trainplane.json, train.py, prepare.py", "--force");
        assertThat(dir.resolve("train.py")).hasContent("# mine");

        assertThat(cli(System.getenv(), "init", dir.toString(), "--force").exit())
                .isZero();
        assertThat(dir.resolve("train.py")).content().contains("DistributedDataParallel");
    }

    /**
     * A user without PyTorch: {@code run}'s auto runtime says on one line that it runs the simulated
     * workload and how to get torch, and the starter passes its gate there (the simulation's accuracy
     * after the starter's 15 epochs is 0.83, its gate 0.8); {@code --runtime process} is refused with
     * the same advice.
     */
    @Test
    void withoutTorchTheStarterRunsSimulatedSaysSoAndPasses(@TempDir Path temp) {
        Map<String, String> env = new HashMap<>(System.getenv());
        // A python that cannot import torch, whatever this machine has on its PATH.
        env.put(PythonRuntime.PYTHON_VARIABLE, "/bin/false");
        env.put("TRAINPLANE_HOME", temp.resolve("store").toString());
        Path dir = temp.resolve("my-model");
        assertThat(cli(env, "init", dir.toString()).exit()).isZero();
        String spec = dir.resolve("trainplane.json").toString();
        String howToGetTorch = "pip install torch --index-url https://download.pytorch.org/whl/cpu";

        Result run = cli(env, "run", spec, "--output", "json");
        assertThat(run.exit()).as(run.err() + run.out()).isZero();
        assertThat(Json.read(run.out()).path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(run.err().lines().filter(l -> l.startsWith("simulated runtime:")))
                .singleElement()
                .asString()
                .contains("no python that can import torch was found", "TRAINPLANE_PYTHON", howToGetTorch);

        Result process = cli(env, "run", spec, "--runtime", "process");
        assertThat(process.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(process.err()).contains("--runtime process needs a python that can import torch", howToGetTorch);
        assertThat(process.err()).doesNotContain("\tat ");
    }

    /**
     * The environment of a user with a python that has PyTorch ({@code TRAINPLANE_PYTHON}) and the
     * local store in {@code temp} ({@code TRAINPLANE_HOME}); the test is skipped, saying why, without one.
     */
    static Map<String, String> processRuntimeEnvironment(Path temp) throws Exception {
        PythonRuntime python = TorchEnvironment.python();
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put(PythonRuntime.PYTHON_VARIABLE, python.python().toString());
        env.put("TRAINPLANE_HOME", temp.resolve("store").toString());
        return env;
    }

    /**
     * The README's commands, as they are: {@code trainplane init my-model}, then {@code trainplane
     * run my-model/trainplane.json --runtime process}. The store goes where TRAINPLANE_HOME says (a
     * temporary directory), as for a user who sets it.
     */
    @Test
    void theStarterRunsToSucceededWithTheProcessRuntimeAndLeavesNothingBehind(@TempDir Path temp) throws Exception {
        Map<String, String> env = processRuntimeEnvironment(temp);
        Path dir = temp.resolve("my-model");
        assertThat(cli(env, "init", dir.toString()).exit()).isZero();

        Result run =
                cli(env, "run", dir.resolve("trainplane.json").toString(), "--runtime", "process", "--output", "json");
        // The summary (stdout) holds the cause when it fails: the scheduler's words for Unschedulable.
        assertThat(run.exit()).as(run.err() + run.out()).isZero();
        JsonNode summary = Json.read(run.out());
        assertThat(summary.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(summary.at("/metrics/accuracy").asDouble()).isGreaterThanOrEqualTo(0.8);
        assertThat(summary.at("/resources/remaining")).as(run.out()).isEmpty();
        assertThat(run.err()).contains("process runtime:", "3 files", "via the run's ConfigMap");
        // Nothing written into the user's directory by the run: its code was copied, not used in place.
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted().toList())
                    .containsExactly("prepare.py", "train.py", "trainplane.json");
        }
    }
}
