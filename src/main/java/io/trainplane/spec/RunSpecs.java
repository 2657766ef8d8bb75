package io.trainplane.spec;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * Reads run specs: parse, validate against {@code run-spec.schema.json}, apply the schema's
 * defaults, check the rules across fields and what this version can run. Every problem is
 * reported at once, each with its JSON pointer and a hint.
 *
 * <p>The forms with a {@code runDay} (the UTC day the run starts, from the caller's clock) also
 * hold the Kubernetes version to EKS's support calendar ({@link KubernetesVersions}); what starts
 * a run uses them, and their default version is the newest in standard support that day. The
 * forms without only refuse a version EKS never had: they are for specs checked on their day
 * already, and for tests; their default version is that of the day the calendar was copied.
 */
public final class RunSpecs {
    private static final String MINIMAL_SPEC = "{\"cluster\": {\"mode\": \"existing\", \"name\": \"my-cluster\"}}";

    private RunSpecs() {}

    /**
     * The run spec of {@code json}, defaults applied.
     *
     * @throws InvalidSpecException with every problem found
     */
    public static RunSpec parse(String json) {
        return parse(json, null);
    }

    /**
     * The run spec of {@code json}, defaults applied, for a run starting on {@code runDay}.
     *
     * @throws InvalidSpecException with every problem found
     */
    public static RunSpec parse(String json, LocalDate runDay) {
        return parse(json, runDay, null);
    }

    /**
     * The run spec of {@code json} for a run starting on {@code runDay} in {@code region}: its
     * instance types are held to what the Region sells, and an {@code accelerator} becomes the
     * smallest type with those GPUs sold there ({@link Accelerators}). A null Region judges neither.
     *
     * @throws InvalidSpecException with every problem found
     */
    public static RunSpec parse(String json, LocalDate runDay, String region) {
        Outcome outcome = evaluate(json, runDay, region);
        if (!outcome.problems().isEmpty()) {
            throw new InvalidSpecException(outcome.problems());
        }
        return outcome.spec();
    }

    /** Same as {@link #parse(String)} for a document already read (an execution input, a stored spec). */
    public static RunSpec parse(JsonNode json) {
        return parse(json, null);
    }

    public static RunSpec parse(JsonNode json, LocalDate runDay) {
        return parse(json == null ? null : json.toString(), runDay);
    }

    /**
     * The normalized spec: every default applied, fields in a fixed order; what is stored and
     * hashed. Normalizing a normalized spec changes nothing.
     *
     * @throws InvalidSpecException with every problem found
     */
    public static ObjectNode normalize(String json) {
        return parse(json).toJson();
    }

    /** {@link #normalize(String)} for a run starting on {@code runDay}. */
    public static ObjectNode normalize(String json, LocalDate runDay) {
        return parse(json, runDay).toJson();
    }

    /** {@link #normalize(String)} for a run starting on {@code runDay} in {@code region}. */
    public static ObjectNode normalize(String json, LocalDate runDay, String region) {
        return parse(json, runDay, region).toJson();
    }

    /**
     * A spec this class normalized earlier (StartRun's output, a run record's spec), read as it
     * is: no schema validation, no defaults. The steps after StartRun read the spec on every
     * invocation, polls included, and it cannot have changed since it was checked.
     */
    public static RunSpec fromNormalized(JsonNode normalized) {
        if (normalized == null || !normalized.isObject()) {
            throw new IllegalArgumentException("not a normalized run spec: " + normalized);
        }
        return SpecRecords.fromJson((ObjectNode) normalized);
    }

    public static RunSpec fromNormalized(String normalizedJson) {
        try {
            return fromNormalized(Json.read(normalizedJson));
        } catch (UncheckedIOException e) {
            throw new IllegalArgumentException(
                    "not a normalized run spec: " + e.getCause().getMessage(), e);
        }
    }

    /** Every problem of {@code json}; empty when it can run. Never throws for bad input. */
    public static List<SpecProblem> problems(String json) {
        return evaluate(json, null, null).problems();
    }

    /** Every problem of {@code json} for a run starting on {@code runDay}; empty when it can run. */
    public static List<SpecProblem> problems(String json, LocalDate runDay) {
        return evaluate(json, runDay, null).problems();
    }

    /** Every problem of {@code json} for a run starting on {@code runDay} in {@code region}. */
    public static List<SpecProblem> problems(String json, LocalDate runDay, String region) {
        return evaluate(json, runDay, region).problems();
    }

    /** A copy of the run spec JSON Schema. */
    public static JsonNode schema() {
        return SpecSchema.get().root().deepCopy();
    }

    private record Outcome(RunSpec spec, List<SpecProblem> problems) {}

    private static Outcome evaluate(String json, LocalDate runDay, String region) {
        ObjectNode document;
        try {
            document = read(json);
        } catch (InvalidSpecException e) {
            return new Outcome(null, e.problems());
        }
        SpecSchema schema = SpecSchema.get();
        List<SpecProblem> problems = new ArrayList<>(SpecRules.controlCharacters(document));
        List<SpecProblem> schemaProblems = SchemaProblems.translate(schema, document, schema.validate(document));
        problems.addAll(schemaProblems);
        RunSpec spec = null;
        if (schemaProblems.isEmpty()) {
            ObjectNode withDefaults = document.deepCopy();
            List<SpecProblem> accelerator = resolveAccelerator(withDefaults, region);
            if (!accelerator.isEmpty()) {
                problems.addAll(accelerator);
                return new Outcome(null, ordered(problems));
            }
            defaultGpusPerNode(withDefaults);
            SchemaDefaults.apply(schema, withDefaults);
            defaultKubernetesVersion(withDefaults, runDay);
            defaultDisk(withDefaults);
            defaultMaxRestarts(withDefaults);
            spec = SpecRecords.fromJson(withDefaults);
            problems.addAll(SpecRules.check(spec, document));
            problems.addAll(SpecRules.kubernetesVersion(spec, runDay));
            problems.addAll(SpecRules.soldIn(spec, region));
            problems.addAll(Capabilities.unsupported(spec));
        } else {
            problems.addAll(Capabilities.unsupported(document));
        }
        return new Outcome(spec, ordered(problems));
    }

    /**
     * A created cluster's Kubernetes version when the spec names none: the data's, not a constant
     * ({@link KubernetesVersions#defaultVersion}) on the run's day, or without one on the day the
     * calendar was copied (a fixed day, so that such a spec reads the same whenever it is parsed).
     * None when the calendar has no version EKS creates clusters with that day: the version rule then
     * says so.
     */
    private static void defaultKubernetesVersion(ObjectNode spec, LocalDate runDay) {
        if (!(spec.get("cluster") instanceof ObjectNode cluster)
                || !ClusterMode.CREATE.json().equals(cluster.path("mode").asText())
                || cluster.has("kubernetesVersion")) {
            return;
        }
        KubernetesVersions.defaultVersion(runDay == null ? KubernetesVersions.asOf() : runDay)
                .ifPresent(version -> cluster.put("kubernetesVersion", version));
    }

    /**
     * A node group named by its GPUs ({@code accelerator: "A100:8"}) gets the smallest instance type
     * with exactly those GPUs sold in {@code region} (in any Region when null): the normalized spec,
     * which is stored and hashed, names the type. Problems when none fits, naming what does exist.
     */
    private static List<SpecProblem> resolveAccelerator(ObjectNode spec, String region) {
        if (!(spec.at("/cluster/nodeGroup") instanceof ObjectNode nodeGroup) || !nodeGroup.has("accelerator")) {
            return List.of();
        }
        String text = nodeGroup.path("accelerator").asText();
        String pointer = "/cluster/nodeGroup/accelerator";
        Accelerators.Request request = Accelerators.Request.parse(text).orElse(null);
        if (request == null) { // the schema's pattern refused it already
            return List.of(new SpecProblem(pointer, "\"" + text + "\" is not MODEL:COUNT", "e.g. \"A100:8\""));
        }
        List<InstanceShapes.Shape> anywhere = Accelerators.fitting(request);
        if (anywhere.isEmpty()) {
            return List.of(new SpecProblem(
                    pointer,
                    "is \"" + text + "\", but no instance type in the EC2 catalog of " + InstanceShapes.date()
                            + " has exactly " + request.count() + " NVIDIA " + request.model() + " GPU"
                            + (request.count() == 1 ? "" : "s")
                            + (request.memoryGiB() == null ? "" : " of " + request.memoryGiB() + " GB"),
                    "name a model and a count EC2 sells, MODEL:COUNT: " + Accelerators.knownModels()));
        }
        List<InstanceShapes.Shape> here = Accelerators.fitting(request, region);
        if (here.isEmpty()) {
            java.util.Set<String> regions = new java.util.TreeSet<>();
            anywhere.forEach(s -> regions.addAll(InstanceShapes.regionsOffering(s.name())));
            return List.of(new SpecProblem(
                    pointer,
                    "is \"" + text + "\", but " + region + " sells none of the types with those GPUs ("
                            + String.join(
                                    ", ",
                                    anywhere.stream()
                                            .map(InstanceShapes.Shape::name)
                                            .toList())
                            + "; EC2 catalog of " + InstanceShapes.date() + ")",
                    "run in a Region that sells them (" + String.join(", ", regions) + "), or name other GPUs"));
        }
        nodeGroup.remove("accelerator");
        nodeGroup.put("instanceType", here.getFirst().name());
        return List.of();
    }

    /**
     * A node group's {@code gpusPerNode} when the spec states none: a fact of its instance type
     * ({@link InstanceShapes}), of the first when several are listed; a stated value only asserts
     * it ({@link SpecRules}). An unknown type keeps the schema's 0, and the instance type rule names it.
     */
    private static void defaultGpusPerNode(ObjectNode spec) {
        if (!(spec.at("/cluster/nodeGroup") instanceof ObjectNode nodeGroup) || nodeGroup.has("gpusPerNode")) {
            return;
        }
        JsonNode type = nodeGroup.path("instanceType").isTextual()
                ? nodeGroup.path("instanceType")
                : nodeGroup.path("instanceTypes").path(0);
        if (type.isTextual()) {
            InstanceShapes.of(type.asText()).ifPresent(shape -> nodeGroup.put("gpusPerNode", shape.gpus()));
        }
    }

    /** A created cluster's root volumes when the spec sizes none: from the training image ({@link NodeDisk}). */
    private static void defaultDisk(ObjectNode spec) {
        if (!(spec.at("/cluster/nodeGroup") instanceof ObjectNode nodeGroup) || nodeGroup.has("diskGiB")) {
            return;
        }
        JsonNode image =
                spec.at("/workload/image").isTextual() ? spec.at("/workload/image") : spec.at("/training/image");
        nodeGroup.put("diskGiB", NodeDisk.defaultGiB(image.asText()));
    }

    /**
     * torchrun's --max-restarts when the spec sets none: what node loss needs, no more. torchrun
     * restarts all of a pod's workers after any of them failed, a crash of the user's code as well
     * as a peer lost with its node ("Maximum number of worker group restarts before failing",
     * https://docs.pytorch.org/docs/stable/elastic/run.html). An Indexed Job of one worker has no
     * survivor to wait for a replacement: its lost pod is recreated by the Job (DisruptionTarget →
     * Ignore), so 0, and a crash fails after one attempt. With more workers the survivors spend one
     * restart an interruption: as many as training.maxInterruptions allows.
     */
    private static void defaultMaxRestarts(ObjectNode spec) {
        if (!(spec.get("training") instanceof ObjectNode training) || training.has("maxRestarts")) {
            return;
        }
        boolean alone = training.path("workers").asInt() == 1
                && Launcher.INDEXED_JOB.json().equals(training.path("launcher").asText());
        training.put(
                "maxRestarts", alone ? 0 : training.path("maxInterruptions").asInt());
    }

    private static ObjectNode read(String json) {
        if (json == null || json.isBlank()) {
            throw notAnObject("is empty: a run spec is a JSON object");
        }
        JsonNode node;
        try {
            node = Json.strictMapper().readTree(json);
        } catch (JsonProcessingException e) {
            JsonLocation where = e.getLocation();
            String position = where == null ? "" : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
            throw new InvalidSpecException(new SpecProblem(
                    "",
                    "is not valid JSON: " + e.getOriginalMessage().replaceAll("\\[Source: [^;]*; ", "[") + position,
                    "check the quotes, commas and braces" + (position.isEmpty() ? "" : " near" + position.substring(3))
                            + "; a run spec looks like " + MINIMAL_SPEC));
        }
        if (node == null || node.isMissingNode()) {
            throw notAnObject("is empty: a run spec is a JSON object");
        }
        if (!node.isObject()) {
            throw notAnObject("must be a JSON object, not " + describe(node.getNodeType()));
        }
        return (ObjectNode) node;
    }

    private static InvalidSpecException notAnObject(String message) {
        return new InvalidSpecException(new SpecProblem("", message, "start from " + MINIMAL_SPEC));
    }

    private static String describe(JsonNodeType type) {
        return switch (type) {
            case ARRAY -> "an array";
            case NULL -> "null";
            case BOOLEAN -> "a boolean";
            case NUMBER -> "a number";
            default -> "a " + type.name().toLowerCase(Locale.ROOT);
        };
    }

    /** Without duplicates, in pointer order (so a field's problems are together), stable otherwise. */
    private static List<SpecProblem> ordered(List<SpecProblem> problems) {
        List<SpecProblem> unique = new ArrayList<>(new LinkedHashSet<>(problems));
        unique.sort(Comparator.comparing(SpecProblem::pointer));
        return List.copyOf(unique);
    }
}
