package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.KubeflowCrds;
import io.trainplane.kubernetes.KubernetesModels;
import io.trainplane.local.sim.SimulatedKubernetes;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every Kubernetes object the project creates, as its functions sent it to the simulated API
 * server (every POST, PUT and PATCH but the control plane's own, {@link SimulatedKubernetes#writes()}),
 * validates against the published schema of its kind: built-in kinds against the Kubernetes
 * OpenAPI schemas of npm {@code kubernetes-models} ({@link KubernetesModels}: Kubernetes 1.36.0, the
 * version the demo cluster and the examples' created clusters get on the tests' day; see there why
 * the schemas also judge other versions of the stable APIs used), the Kubeflow kinds against the CRDs of {@code ../shared/kubeflow/}
 * ({@link KubeflowCrds}). An object of a kind neither knows fails the test.
 *
 * <p>The objects come from real runs, not from the manifest builders called one by one, so that a
 * new builder is judged as soon as a run uses it: every example, and variants that reach the other
 * builders (the PyTorchJob launcher, with GPUs and EFA too; no volume; data from a URL).
 */
class CreatedObjectsSchemaTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** One run: a name for messages, its spec. */
    record Scenario(String name, ObjectNode spec) {}

    /** One object a run created, with the Kubernetes version of the cluster it was sent to. */
    record Created(String scenario, String clusterVersion, SimulatedKubernetes.Write write, JsonNode object) {
        String where() {
            return scenario + " (Kubernetes " + clusterVersion + "), " + write.method() + " " + write.path();
        }

        boolean kubeflow() {
            return object.path("apiVersion").asText().startsWith("kubeflow.org/");
        }
    }

    static List<Created> created;

    static List<Scenario> scenarios() throws IOException {
        List<Scenario> scenarios = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("examples"))) {
            for (Path example : files.filter(f -> f.toString().endsWith(".json"))
                    // A shipped directory needs the CLI to pack it: CodeRoutesTest checks those objects.
                    .filter(f -> !ExamplesUnderIamTest.shipsADirectory(f))
                    .sorted()
                    .toList()) {
                scenarios.add(new Scenario(
                        example.toString(), example(example.getFileName().toString())));
            }
        }
        scenarios.add(variant("quickstart.json", "launcher pytorchjob", spec -> {
            training(spec).put("launcher", "pytorchjob").put("workers", 3);
            // A node for each replica: they train together or not at all.
            ((ObjectNode) spec.path("cluster").path("nodeGroup")).put("nodes", 3);
        }));
        scenarios.add(variant("multi-node-efa.json", "launcher pytorchjob, GPUs and EFA", spec -> training(spec)
                .put("launcher", "pytorchjob")));
        scenarios.add(variant("quickstart.json", "no volume, data from a URL", spec -> {
            spec.putObject("volume").put("type", "none");
            spec.putObject("data")
                    .put("source", "url")
                    .put("url", "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz")
                    .put("sha256", "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce");
        }));
        return scenarios;
    }

    @BeforeAll
    static void runEveryScenario() throws IOException {
        created = new ArrayList<>();
        for (Scenario scenario : scenarios()) {
            var spec = RunSpecs.normalize(Json.write(scenario.spec()));
            // The examples' runs are those ExamplesUnderIamTest judges too: made once (ExampleRuns).
            ExampleRuns.Outcome run = ExampleRuns.of(spec);
            RunReport report = run.report();
            // A run that stops early creates less than it should: the objects it never sent would go unjudged.
            assertThat(report.status())
                    .as("%s: %s %s", scenario.name(), report.error(), report.cause())
                    .isEqualTo("SUCCEEDED");
            for (SimulatedKubernetes.Write write : run.writes()) {
                created.add(new Created(scenario.name(), run.clusterVersion(), write, object(scenario, write)));
            }
        }
    }

    @Test
    void everyRunSentItsObjectsAndTheyCoverEveryBuilder() {
        assertThat(created).extracting(Created::scenario).containsAll(names());
        Set<String> kinds = created.stream()
                .map(c -> c.object().path("kind").asText())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(kinds)
                .as("the runs reach the workload, volume, device plugin and PyTorchJob builders")
                .contains(
                        "Namespace",
                        "ConfigMap",
                        "Job",
                        "Service",
                        "PyTorchJob",
                        "StorageClass",
                        "PersistentVolume",
                        "PersistentVolumeClaim",
                        "DaemonSet");
    }

    @Test
    void everyBuiltInObjectValidatesAgainstTheKubernetesOpenApiSchema() throws Exception {
        List<Created> builtIn = created.stream().filter(c -> !c.kubeflow()).toList();
        assertThat(builtIn).isNotEmpty();

        List<KubernetesModels.Verdict> verdicts = KubernetesModels.installed()
                .validate(builtIn.stream().map(Created::object).toList());

        List<String> offenses = new ArrayList<>();
        for (int i = 0; i < builtIn.size(); i++) {
            if (verdicts.get(i).outcome() != KubernetesModels.Outcome.VALID) {
                offenses.add(builtIn.get(i).where() + ": " + verdicts.get(i).describe());
            }
        }
        assertThat(offenses)
                .as(
                        "objects judged by the Kubernetes %s OpenAPI schemas (%s); UNKNOWN is a kind it has no model of",
                        KubernetesModels.KUBERNETES_VERSION, KubernetesModels.PACKAGE)
                .isEmpty();
    }

    @Test
    void everyKubeflowObjectValidatesAgainstItsCrd() throws Exception {
        List<Created> kubeflow = created.stream().filter(Created::kubeflow).toList();
        assertThat(kubeflow).isNotEmpty();
        KubeflowCrds crds = KubeflowCrds.loaded();

        List<String> offenses = new ArrayList<>();
        for (Created c : kubeflow) {
            List<String> errors = crds.defines(c.object())
                    ? crds.validate(c.object())
                    : List.of("no CRD in " + KubeflowCrds.FOLDER + " defines "
                            + c.object().path("apiVersion").asText() + " "
                            + c.object().path("kind").asText());
            if (!errors.isEmpty()) {
                offenses.add(c.where() + ": " + errors);
            }
        }
        assertThat(offenses).isEmpty();
    }

    /**
     * The object a write carries. A create or replace sends the whole object; a server-side apply
     * (application/apply-patch+yaml) too. Any other patch holds only changes, which no schema judges:
     * the test refuses it, so that whoever starts patching makes the test judge the patched object.
     */
    static JsonNode object(Scenario scenario, SimulatedKubernetes.Write write) {
        String type = write.contentType() == null ? "" : write.contentType();
        boolean whole = !write.method().equals("PATCH") || type.startsWith("application/apply-patch");
        assertThat(whole)
                .as(
                        "%s: %s %s (%s) is a partial patch; judge the object it makes instead",
                        scenario.name(), write.method(), write.path(), type)
                .isTrue();
        try {
            JsonNode object = YAML.readTree(write.body());
            assertThat(object.path("apiVersion").asText() + object.path("kind").asText())
                    .as(
                            "%s: %s %s sends no apiVersion and kind: %s",
                            scenario.name(), write.method(), write.path(), object)
                    .isNotBlank();
            return object;
        } catch (IOException e) {
            throw new AssertionError(
                    scenario.name() + ": " + write.method() + " " + write.path() + " sends no JSON or YAML object: "
                            + write.body(),
                    e);
        }
    }

    static ObjectNode example(String file) throws IOException {
        return (ObjectNode) Json.read(Files.readString(Path.of("examples", file)));
    }

    static Scenario variant(String file, String change, Consumer<ObjectNode> edit) throws IOException {
        ObjectNode spec = example(file);
        edit.accept(spec);
        return new Scenario("examples/" + file + " with " + change, spec);
    }

    static ObjectNode training(ObjectNode spec) {
        return (ObjectNode) spec.path("training");
    }

    static List<String> names() {
        try {
            return scenarios().stream().map(Scenario::name).toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
