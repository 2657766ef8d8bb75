package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.trainplane.core.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Kubernetes object of the plan in a few lines for people: for a Job or a PyTorchJob, its pods
 * (how many, on which nodes) and each container's image, command and resources; for a ConfigMap,
 * its files and their sizes. The manifests themselves are in {@code plan --output json}. Works on
 * the manifest's JSON, so a PyTorchJob (a generic resource) reads like a Job.
 */
final class ManifestSummary {
    /** A shell script in a command is shown as its line count: the manifests have it whole. */
    private static final int LONGEST_ARGUMENT = 80;

    private ManifestSummary() {}

    static List<String> of(HasMetadata manifest) {
        JsonNode m = Json.mapper().valueToTree(manifest);
        String kind = m.path("kind").asText();
        String title = kind + " " + m.at("/metadata/name").asText();
        List<String> lines = new ArrayList<>();
        switch (kind) {
            case "ConfigMap" -> lines.add(title + ": " + files(m.path("data"), m.path("binaryData")));
            case "Job" -> {
                JsonNode spec = m.path("spec");
                int pods = spec.path("completions").asInt(1);
                lines.add(title + ": " + pods + (pods == 1 ? " pod" : " pods")
                        + (spec.has("completionMode")
                                ? " (" + spec.path("completionMode").asText() + ")"
                                : "")
                        + deadline(spec));
                pod(spec.at("/template/spec"), lines);
            }
            case "PyTorchJob", "MPIJob" -> {
                lines.add(title + ": the training" + deadline(m.at("/spec/runPolicy"))
                        + (kind.equals("MPIJob")
                                ? ", slotsPerWorker "
                                        + m.at("/spec/slotsPerWorker").asInt()
                                : ""));
                for (Map.Entry<String, JsonNode> replica : m.at(
                                kind.equals("MPIJob") ? "/spec/mpiReplicaSpecs" : "/spec/pytorchReplicaSpecs")
                        .properties()) {
                    int pods = replica.getValue().path("replicas").asInt(1);
                    lines.add("  " + replica.getKey() + ": " + pods + (pods == 1 ? " pod" : " pods"));
                    pod(replica.getValue().at("/template/spec"), lines);
                }
            }
            case "Service" ->
                lines.add(title + ": "
                        + ("None".equals(m.at("/spec/clusterIP").asText()) ? "headless, " : "")
                        + "ports "
                        + join(m.at("/spec/ports"), p -> p.path("port").asText()));
            case "PersistentVolume" ->
                lines.add(title + ": " + m.at("/spec/csi/driver").asText() + " "
                        + m.at("/spec/csi/volumeHandle").asText() + ", "
                        + m.at("/spec/capacity/storage").asText());
            case "PersistentVolumeClaim" ->
                lines.add(title + ": volume " + m.at("/spec/volumeName").asText());
            case "StorageClass" ->
                lines.add(title + ": provisioner " + m.path("provisioner").asText());
            default -> lines.add(title);
        }
        return lines;
    }

    private static String deadline(JsonNode spec) {
        return spec.has("activeDeadlineSeconds")
                ? ", deadline " + spec.path("activeDeadlineSeconds").asLong() + " s"
                : "";
    }

    private static void pod(JsonNode pod, List<String> lines) {
        JsonNode selector = pod.path("nodeSelector");
        lines.add("    nodes: " + (selector.isEmpty() ? "any" : selectorText(selector))
                + (pod.path("tolerations").isEmpty()
                        ? ""
                        : ", tolerates "
                                + join(pod.path("tolerations"), t -> t.path("key")
                                        .asText())));
        // A native sidecar is an init container that restarts: it runs beside the main containers.
        for (JsonNode c : pod.path("initContainers")) {
            lines.addAll(container("Always".equals(c.path("restartPolicy").asText()) ? "sidecar" : "init", c));
        }
        for (JsonNode c : pod.path("containers")) {
            lines.addAll(container("container", c));
        }
    }

    private static String selectorText(JsonNode selector) {
        List<String> pairs = new ArrayList<>();
        selector.properties()
                .forEach(e -> pairs.add(e.getKey() + "=" + e.getValue().asText()));
        return String.join(", ", pairs);
    }

    private static List<String> container(String role, JsonNode c) {
        List<String> words = new ArrayList<>();
        c.path("command").forEach(w -> words.add(argument(w.asText())));
        c.path("args").forEach(w -> words.add(argument(w.asText())));
        return List.of(
                "    " + role + " " + c.path("name").asText() + ": image "
                        + c.path("image").asText(),
                // The directory the command starts in matters to a relative script (python train.py).
                "      command"
                        + (c.hasNonNull("workingDir")
                                ? " (in " + c.path("workingDir").asText() + ")"
                                : "") + ": " + String.join(" ", words),
                "      resources: requests " + quantities(c.at("/resources/requests")) + "; limits "
                        + quantities(c.at("/resources/limits")));
    }

    private static String argument(String word) {
        if (word.contains("\n")) {
            return "<script of " + word.lines().count() + " lines>";
        }
        if (word.length() > LONGEST_ARGUMENT) {
            return word.substring(0, LONGEST_ARGUMENT) + "…";
        }
        // Quoted as a POSIX shell would need it, so that the line shows where each argument ends.
        return word.isEmpty() || SHELL_SPECIAL.matcher(word).find() ? "'" + word.replace("'", "'\\''") + "'" : word;
    }

    private static final java.util.regex.Pattern SHELL_SPECIAL =
            java.util.regex.Pattern.compile("[\\s'\"\\\\$`;&|<>(){}*?\\[\\]!#]");

    private static String quantities(JsonNode resources) {
        if (resources.isMissingNode() || resources.isEmpty()) {
            return "none";
        }
        List<String> pairs = new ArrayList<>();
        resources
                .properties()
                .forEach(e -> pairs.add(e.getKey() + " " + e.getValue().asText()));
        return String.join(", ", pairs);
    }

    private static String files(JsonNode data, JsonNode binaryData) {
        List<String> files = new ArrayList<>();
        data.properties()
                .forEach(e -> files.add(
                        e.getKey() + " (" + e.getValue().asText().getBytes(StandardCharsets.UTF_8).length + " bytes)"));
        binaryData
                .properties()
                .forEach(
                        e -> files.add(e.getKey() + " (" + e.getValue().asText().length() + " base64 characters)"));
        return files.isEmpty() ? "no files" : String.join(", ", files);
    }

    private static String join(JsonNode array, java.util.function.Function<JsonNode, String> text) {
        List<String> parts = new ArrayList<>();
        array.forEach(n -> parts.add(text.apply(n)));
        return String.join(", ", parts);
    }
}
