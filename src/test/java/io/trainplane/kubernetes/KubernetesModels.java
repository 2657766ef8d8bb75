package io.trainplane.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.NpmPeer;
import io.trainplane.core.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The judge of Kubernetes objects: the npm package {@code kubernetes-models} 5.1.0 (DESIGN.md §10 names 4.5.1),
 * whose model classes validate an object against the Kubernetes OpenAPI schema of its kind
 * ({@code new Job(object).validate()}), run by {@code src/test/node/kubernetes-models/validate.mjs}.
 *
 * <pre>{@code
 * List<KubernetesModels.Verdict> verdicts = KubernetesModels.installed().validate(objects);
 * }</pre>
 *
 * <p>Kubernetes version: kubernetes-models 5.1.0 carries the schemas of Kubernetes 1.36.0
 * ({@link #KUBERNETES_VERSION}; its newest, merged over older versions' for removed APIs): the
 * version the demo cluster and the examples' created clusters get on the tests' day (the newest in
 * standard support; {@code TestTime}), and newer than any older version a spec may name. A stable API version ({@code v1}, {@code batch/v1}, {@code apps/v1}, {@code storage.k8s.io/v1})
 * removes no field in a later release (https://kubernetes.io/docs/reference/using-api/deprecation-policy/,
 * rule #1), so the 1.36 schema of a stable kind judges a 1.35 object's fields as 1.35 would; what
 * it cannot tell is a field new in 1.36, which a 1.35 API server would drop (the schemas leave
 * unknown fields open either way). The package declares Node.js 22 or newer; on the Node.js 20 of
 * these machines it installs with an engine warning and validates (KubernetesModelsTest checks it
 * refuses what is invalid).
 *
 * <p>Installed by {@link NpmPeer}: skipped where node or npm is missing, failing under {@code CI=true}.
 */
public final class KubernetesModels {
    public static final String PACKAGE = "kubernetes-models@5.1.0";
    /** The Kubernetes release whose OpenAPI schemas {@link #PACKAGE} carries (its CHANGELOG, 5.0.0). */
    public static final String KUBERNETES_VERSION = "1.36.0";

    private static final int VALIDATE_SECONDS = 120;
    private static KubernetesModels installed;

    private final NpmPeer peer;

    private KubernetesModels(NpmPeer peer) {
        this.peer = peer;
    }

    /** What the schema says of one object: VALID, INVALID (with the schema's errors) or UNKNOWN (no model class). */
    public enum Outcome {
        VALID,
        INVALID,
        UNKNOWN
    }

    /** The verdict on one object, in the order given, with the validator's messages. */
    public record Verdict(JsonNode object, Outcome outcome, List<String> errors) {
        public String describe() {
            return object.path("apiVersion").asText() + " "
                    + object.path("kind").asText() + " "
                    + object.path("metadata").path("namespace").asText("-") + "/"
                    + object.path("metadata").path("name").asText() + ": " + outcome + " " + errors;
        }
    }

    /** The validator, installed and ready; skips (or, on CI, fails) the calling test when it cannot be. */
    public static synchronized KubernetesModels installed() throws IOException, InterruptedException {
        if (installed == null) {
            installed = new KubernetesModels(NpmPeer.installed(
                    "kubernetes-models",
                    List.of("validate.mjs"),
                    "validate Kubernetes objects against the OpenAPI schemas of npm " + PACKAGE));
        }
        return installed;
    }

    /** One verdict per object, in order. */
    public List<Verdict> validate(List<JsonNode> objects) throws IOException, InterruptedException {
        Path input = Files.createTempFile("kubernetes-objects-", ".json");
        try {
            Files.writeString(input, Json.write(Json.mapper().valueToTree(objects)));
            NpmPeer.Run run = peer.node("validate.mjs", List.of(input.toString()), VALIDATE_SECONDS);
            String document = run.output()
                    .lines()
                    .filter(line -> line.startsWith("{\"package\""))
                    .reduce((first, last) -> last)
                    .orElseThrow(() -> new IllegalStateException(
                            "validate.mjs failed (exit " + run.status() + "):\n" + run.output()));
            JsonNode report = Json.read(document);
            if (!report.path("package").asText().equals(PACKAGE)
                    || !report.path("kubernetesVersion").asText().equals(KUBERNETES_VERSION)) {
                throw new IllegalStateException("validate.mjs reports " + report.path("package") + " with Kubernetes "
                        + report.path("kubernetesVersion") + ", expected " + PACKAGE + " with " + KUBERNETES_VERSION);
            }
            List<Verdict> verdicts = new ArrayList<>();
            for (JsonNode result : report.path("results")) {
                List<String> errors = new ArrayList<>();
                result.path("errors").forEach(e -> errors.add(e.asText()));
                verdicts.add(new Verdict(
                        objects.get(result.path("index").asInt()),
                        Outcome.valueOf(result.path("verdict").asText().toUpperCase()),
                        List.copyOf(errors)));
            }
            boolean allValid = verdicts.stream().allMatch(v -> v.outcome() == Outcome.VALID);
            if (verdicts.size() != objects.size() || (run.status() == 0) != allValid) {
                throw new IllegalStateException("validate.mjs exited " + run.status() + " with " + verdicts.size()
                        + " verdicts for " + objects.size() + " objects:\n" + run.output());
            }
            return List.copyOf(verdicts);
        } finally {
            Files.deleteIfExists(input);
        }
    }
}
