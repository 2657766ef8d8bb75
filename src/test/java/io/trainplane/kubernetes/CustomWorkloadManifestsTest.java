package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.trainplane.core.Json;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The workload section in the pods: your image, your commands, torchrun around them, the hyperparameters. */
class CustomWorkloadManifestsTest {
    private static final String IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/team/trainer:1.4.0";

    static RunSpec spec(String launcher, String trainingLauncher, String extra) {
        return RunSpecs.parse(
                """
                {"runId": "mine", "cluster": {"mode": "existing", "name": "warm"},
                 "training": {"launcher": "%s", "workers": 3, "procsPerWorker": 2, "maxRestarts": 1},
                 "workload": {"image": "%s", "code": "image", "launcher": "%s",
                   "commands": {"train": {"args": ["python", "/app/train.py", "--data", "/shared/data"],
                                          "env": {"NCCL_DEBUG": "WARN"}}%s},
                   "hyperparameters": {"epochs": 4, "lr": 0.001, "optimizer": "adamw"}}}"""
                        .formatted(trainingLauncher, IMAGE, launcher, extra));
    }

    private static Container first(Job job) {
        return job.getSpec().getTemplate().getSpec().getContainers().getFirst();
    }

    private static List<String> env(Container c) {
        return c.getEnv().stream().map(e -> e.getName() + "=" + e.getValue()).toList();
    }

    @Test
    void torchrunWrapsYourTrainCommandWithTrainplanesFlagsAndTheHyperparametersAsArguments() {
        Container trainer = first(new WorkloadManifests(spec("torchrun", "indexed-job", "")).trainingJob());
        assertThat(trainer.getImage()).isEqualTo(IMAGE);
        assertThat(trainer.getCommand())
                .containsExactly(
                        "torchrun",
                        "--nnodes=3",
                        "--nproc-per-node=2",
                        "--max-restarts=1",
                        "--rdzv-backend=c10d",
                        "--rdzv-endpoint=tp-mine-train-0.tp-mine-workers:29400",
                        "--rdzv-id=mine",
                        "--no-python",
                        "python",
                        "/app/train.py",
                        "--data",
                        "/shared/data",
                        "--epochs",
                        "4",
                        "--lr",
                        "0.001",
                        "--optimizer",
                        "adamw");
        assertThat(env(trainer))
                .containsExactly(
                        "TRAINPLANE_RUN_ID=mine",
                        "TRAINPLANE_ROLE=training",
                        "TRAINPLANE_NNODES=3",
                        "TRAINPLANE_NPROC_PER_NODE=2",
                        "TRAINPLANE_RDZV_ENDPOINT=tp-mine-train-0.tp-mine-workers:29400",
                        "TRAINPLANE_DATA_DIR=/shared/data",
                        "TRAINPLANE_OUTPUT_DIR=/shared/model",
                        "TRAINPLANE_HP_EPOCHS=4",
                        "TRAINPLANE_HP_LR=0.001",
                        "TRAINPLANE_HP_OPTIMIZER=adamw",
                        "NCCL_DEBUG=WARN");
    }

    @Test
    void launcherNoneRunsYourCommandAsItIs() {
        Container trainer = first(new WorkloadManifests(spec("none", "indexed-job", "")).trainingJob());
        assertThat(trainer.getCommand())
                .containsExactly(
                        "python",
                        "/app/train.py",
                        "--data",
                        "/shared/data",
                        "--epochs",
                        "4",
                        "--lr",
                        "0.001",
                        "--optimizer",
                        "adamw");
        assertThat(env(trainer)).contains("TRAINPLANE_NNODES=3", "TRAINPLANE_HP_EPOCHS=4");
    }

    @Test
    void inAPyTorchJobTheOperatorSetsTorchrunsFlagsAndTheShellPassesSigtermOn() {
        for (String launcher : List.of("torchrun", "none")) {
            var job = new WorkloadManifests(spec(launcher, "pytorchjob", "")).pyTorchJob();
            Container pytorch = job.getSpec()
                    .getPytorchReplicaSpecs()
                    .get("Master")
                    .getTemplate()
                    .getSpec()
                    .getContainers()
                    .getFirst();
            List<String> command = TermExit.unwrap(pytorch.getCommand()).orElseThrow();
            List<String> yours = List.of(
                    "python",
                    "/app/train.py",
                    "--data",
                    "/shared/data",
                    "--epochs",
                    "4",
                    "--lr",
                    "0.001",
                    "--optimizer",
                    "adamw");
            if (launcher.equals("torchrun")) {
                assertThat(command.subList(0, 2)).containsExactly("torchrun", "--no-python");
                assertThat(command.subList(2, command.size())).isEqualTo(yours);
            } else {
                assertThat(command).isEqualTo(yours);
            }
            assertThat(pytorch.getImage()).isEqualTo(IMAGE);
            assertThat(env(pytorch))
                    .contains("TRAINPLANE_HP_LR=0.001", "NCCL_DEBUG=WARN")
                    .noneMatch(e -> e.startsWith("TRAINPLANE_RDZV_ENDPOINT="));
        }
    }

    @Test
    void prepareAndEvaluateRunYourCommandsOrTheDefaults() {
        var given = new WorkloadManifests(spec(
                "torchrun",
                "indexed-job",
                ", \"prepare\": {\"args\": [\"python\", \"/app/prep.py\"]},"
                        + " \"evaluate\": {\"args\": [\"python\", \"/app/eval.py\"], \"env\": {\"SPLIT\": \"test\"}}"));
        Container data = first(given.dataJob());
        assertThat(data.getImage()).isEqualTo(IMAGE);
        assertThat(data.getCommand()).containsExactly("python", "/app/prep.py");
        assertThat(env(data))
                .contains("TRAINPLANE_ROLE=data", "TRAINPLANE_DATA_DIR=/shared/data", "TRAINPLANE_HP_EPOCHS=4");
        Container evaluator = first(given.evaluationJob());
        assertThat(evaluator.getCommand()).containsExactly("python", "/app/eval.py");
        assertThat(env(evaluator))
                .contains("TRAINPLANE_ROLE=evaluation", "SPLIT=test")
                .doesNotContain("NCCL_DEBUG=WARN");

        var defaults = new WorkloadManifests(spec("torchrun", "indexed-job", ""));
        assertThat(first(defaults.dataJob()).getCommand()).startsWith("python", "/workload/prepare.py");
        // Without evaluate, the metrics the training wrote are the evaluation's.
        assertThat(first(defaults.evaluationJob()).getCommand())
                .containsExactly("/bin/sh", "-c", "cat \"$TRAINPLANE_OUTPUT_DIR/metrics.json\" > /dev/termination-log");
    }

    @Test
    void theBuiltinWorkloadSaidExplicitlyGivesTheSameObjectsAsNoSection() {
        String base = "{\"runId\": \"same\", \"cluster\": {\"mode\": \"existing\", \"name\": \"warm\"}%s}";
        var absent = new WorkloadManifests(RunSpecs.parse(base.formatted(""))).all();
        var explicit = new WorkloadManifests(RunSpecs.parse(
                        base.formatted(", \"workload\": {\"code\": \"builtin\", \"launcher\": \"torchrun\"}")))
                .all();
        assertThat((Object) Json.mapper().valueToTree(explicit))
                .isEqualTo(Json.mapper().valueToTree(absent));
        EnvVar role = first((Job) absent.get(3)).getEnv().get(1);
        assertThat(role.getValue()).isEqualTo("data");
    }
}
