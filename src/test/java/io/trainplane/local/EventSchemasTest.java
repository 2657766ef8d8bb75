package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.sim.SimulatedEventBus;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The events (DESIGN §4): each detail-type has a JSON Schema in {@code events/schemas/} and a
 * sample in {@code events/}; the samples and every event a local run puts on a bus match them.
 */
class EventSchemasTest {
    static final Path EVENTS = Path.of("events");
    static final Path SCHEMAS = EVENTS.resolve("schemas");
    static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    static final SchemaValidatorsConfig CONFIG =
            SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
    static String quickstart;

    @BeforeAll
    static void read() throws IOException {
        quickstart = Files.readString(Path.of("examples/quickstart.json"));
    }

    static String kebab(String detailType) {
        return detailType.toLowerCase(java.util.Locale.ROOT).replace(' ', '-');
    }

    static JsonNode read(Path file) {
        try {
            return Json.read(Files.readString(file));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Set<String> names(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(suffix))
                    .map(n -> n.substring(0, n.length() - suffix.length()))
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }

    static Set<ValidationMessage> validate(JsonNode event) {
        Path schema = SCHEMAS.resolve(kebab(event.path("detail-type").asText()) + ".schema.json");
        assertThat(schema)
                .as("schema of '%s'", event.path("detail-type").asText())
                .exists();
        JsonSchema validator = FACTORY.getSchema(read(schema), CONFIG);
        return validator.validate(event);
    }

    @Test
    void everySchemaHasASampleAndEverySampleASchema() throws IOException {
        assertThat(names(EVENTS, ".json"))
                .isEqualTo(names(SCHEMAS, ".schema.json"))
                .contains(
                        "run-started",
                        "training-job-completed",
                        "training-interrupted",
                        "model-evaluated",
                        "run-succeeded",
                        "run-failed",
                        "run-cleaned-up",
                        "orphans-cleaned");
    }

    @TestFactory
    Stream<DynamicTest> schemasAreValidAndEverySampleMatchesItsSchema() throws IOException {
        JsonSchema metaSchema = FACTORY.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
        return names(EVENTS, ".json").stream()
                .map(name -> DynamicTest.dynamicTest(name, () -> {
                    JsonNode schema = read(SCHEMAS.resolve(name + ".schema.json"));
                    assertThat(metaSchema.validate(schema))
                            .as("%s.schema.json against the 2020-12 meta-schema", name)
                            .isEmpty();
                    JsonNode sample = read(EVENTS.resolve(name + ".json"));
                    assertThat(kebab(sample.path("detail-type").asText())).isEqualTo(name);
                    if (sample.path("source").asText().equals("trainplane")) {
                        assertThat(sample.path("detail").path("runId").isTextual())
                                .as("%s: detail.runId", name)
                                .isTrue();
                    }
                    assertThat(validate(sample)).as(name + ".json").isEmpty();
                }));
    }

    @Test
    void theRunFailedSchemaRejectsALeftoverWithoutWhatRemovesIt() {
        JsonNode sample = read(EVENTS.resolve("run-failed.json"));
        var leftover = (com.fasterxml.jackson.databind.node.ObjectNode)
                sample.path("detail").path("cleanup").path("leftBehind").get(0);
        assertThat(validate(sample)).isEmpty();
        leftover.put("removedBy", "someone");
        assertThat(validate(sample)).isNotEmpty();
        leftover.remove("removedBy");
        assertThat(validate(sample)).isNotEmpty();
    }

    @Test
    void aSchemaRejectsADetailWithoutRunId() {
        JsonNode sample = read(EVENTS.resolve("run-succeeded.json"));
        ((com.fasterxml.jackson.databind.node.ObjectNode) sample.get("detail")).remove("runId");
        assertThat(validate(sample)).isNotEmpty();
    }

    record Case(String name, Faults faults, String abortAt, List<String> expected) {}

    @TestFactory
    Stream<DynamicTest> everyEventALocalRunPublishesMatchesItsSchema() {
        return Stream.of(
                        new Case(
                                "succeeded",
                                Faults.none(),
                                null,
                                List.of(
                                        "Run Started",
                                        "Training Job Completed",
                                        "Model Evaluated",
                                        "Run Cleaned Up",
                                        "Run Succeeded")),
                        new Case(
                                "--cluster-fault node-lost",
                                Faults.onCluster(io.trainplane.local.sim.ClusterFault.NODE_LOST),
                                null,
                                List.of(
                                        "Run Started",
                                        "Training Interrupted",
                                        "Training Job Completed",
                                        "Model Evaluated",
                                        "Run Cleaned Up",
                                        "Run Succeeded")),
                        new Case(
                                "--fail-at CheckEvaluation",
                                new Faults(Set.of("CheckEvaluation"), Set.of()),
                                null,
                                List.of("Run Started", "Training Job Completed", "Run Cleaned Up", "Run Failed")),
                        new Case(
                                "--fail-at StartRun",
                                new Faults(Set.of("StartRun"), Set.of()),
                                null,
                                List.of("Run Failed")),
                        new Case(
                                "--abort-at CheckTraining",
                                Faults.none(),
                                "CheckTraining",
                                List.of("Run Started", "Run Cleaned Up", "Run Failed")),
                        // Cleanup gives up: Run Failed names what it left behind.
                        new Case(
                                "--fault efs:DeleteFileSystem",
                                new Faults(Set.of(), Set.of(), Set.of("efs:DeleteFileSystem"), Set.of()),
                                null,
                                List.of("Run Started", "Training Job Completed", "Model Evaluated", "Run Failed")))
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> {
                    List<SimulatedEventBus.Event> events;
                    try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
                        new LocalRun(cloud, c.faults(), e -> {})
                                .abortingAt(c.abortAt())
                                .execute(RunSpecs.normalize(quickstart), "quickstart");
                        events = cloud.bus().events();
                    }
                    assertThat(events.stream()
                                    .filter(e -> e.source().equals("trainplane"))
                                    .map(SimulatedEventBus.Event::detailType))
                            .containsExactlyElementsOf(c.expected());
                    for (SimulatedEventBus.Event event : events) {
                        assertThat(validate(event.envelope()))
                                .as(event.detailType() + ": " + Json.write(event.detail()))
                                .isEmpty();
                    }
                    // The event that ends a run carries what it cost; a run refused at StartRun has no record, so no
                    // cost.
                    SimulatedEventBus.Event ending = events.stream()
                            .filter(e -> e.detailType().equals("Run Succeeded")
                                    || e.detailType().equals("Run Failed"))
                            .reduce((first, second) -> second)
                            .orElseThrow();
                    if (c.name().equals("--fail-at StartRun")) {
                        assertThat(ending.detail().has("actualCost")).isFalse();
                    } else {
                        assertThat(ending.detail()
                                        .path("actualCost")
                                        .path("total")
                                        .asDouble())
                                .as(Json.write(ending.detail()))
                                .isPositive();
                    }
                    if (!c.faults().awsFailures().isEmpty()) {
                        assertThat(events)
                                .filteredOn(e -> e.detailType().equals("Run Failed"))
                                .singleElement()
                                .satisfies(e -> assertThat(e.detail()
                                                .path("cleanup")
                                                .path("leftBehind")
                                                .size())
                                        .isPositive());
                    }
                }));
    }

    @Test
    void runCleanedUpSaysWhatWasDeletedAndWhatWasKept() {
        var spec = (com.fasterxml.jackson.databind.node.ObjectNode) Json.read(quickstart);
        ((com.fasterxml.jackson.databind.node.ObjectNode) spec.get("cleanup")).put("keepCluster", true);
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            new LocalRun(cloud, Faults.none(), e -> {}).execute(RunSpecs.normalize(Json.write(spec)), "quickstart");
            JsonNode detail = cloud.bus().events().stream()
                    .filter(e -> e.detailType().equals("Run Cleaned Up"))
                    .findFirst()
                    .orElseThrow()
                    .detail();
            assertThat(Json.mapper().convertValue(detail.path("kept"), List.class))
                    .contains("eks:cluster/tp-quickstart-eks", "eks:nodegroup/tp-quickstart-nodes");
            assertThat(Json.mapper().convertValue(detail.path("deleted"), List.class))
                    .contains("kubernetes:Namespace/tp-quickstart")
                    .anyMatch(d -> d.toString().startsWith("efs:file-system/"))
                    // The run's Pod Identity association goes with the run, not with the cluster.
                    .anyMatch(d -> d.toString().startsWith("eks:podidentityassociation/tp-quickstart-eks/"))
                    .noneMatch(d -> d.toString().startsWith("eks:cluster/")
                            || d.toString().startsWith("eks:nodegroup/"));
        }
    }
}
