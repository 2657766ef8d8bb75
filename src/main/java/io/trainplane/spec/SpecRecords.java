package io.trainplane.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The normalized spec document and the {@link RunSpec} records, field by field, in schema order.
 * Written out rather than left to Jackson's data binding: every step reads the spec on every
 * invocation, and introspecting the records costs a cold start about 100 ms. The document is
 * schema-valid with its defaults applied; absent and null fields are null (0 or false for
 * numbers and flags), and {@link #toJson} leaves nulls out, and {@code syntheticSamples} when 0.
 */
final class SpecRecords {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private SpecRecords() {}

    /** @throws IllegalArgumentException when the document lacks a required part or holds an unknown value */
    static RunSpec fromJson(ObjectNode spec) {
        try {
            WorkloadSpec workload = workload(spec.path("workload"));
            return new RunSpec(
                    text(spec, "runId"),
                    cluster(part(spec, "cluster")),
                    volume(part(spec, "volume")),
                    data(part(spec, "data")),
                    training(part(spec, "training"), workload.image()),
                    workload,
                    evaluation(part(spec, "evaluation")),
                    new OutputSpec(text(spec.path("output"), "s3Uri")),
                    new CleanupSpec(
                            part(spec, "cleanup").path("keepCluster").asBoolean(),
                            part(spec, "cleanup").path("keepVolume").asBoolean()),
                    spec.path("maxRunHours").asInt(),
                    spec.path("budgetUsd").isNumber() ? spec.path("budgetUsd").asDouble() : null);
        } catch (NullPointerException e) {
            // A record's constructor found a required field missing.
            throw missing(e.getMessage(), e);
        }
    }

    static ObjectNode toJson(RunSpec spec) {
        ObjectNode json = NODES.objectNode();
        putText(json, "runId", spec.runId());
        json.set("cluster", cluster(spec.cluster()));
        ObjectNode volume =
                json.putObject("volume").put("type", spec.volume().type().json());
        putText(volume, "fileSystemId", spec.volume().fileSystemId());
        if (spec.volume().deploymentType() != null) {
            volume.put("deploymentType", spec.volume().deploymentType().name());
        }
        if (spec.volume().perUnitStorageThroughput() != null) {
            volume.put("perUnitStorageThroughput", spec.volume().perUnitStorageThroughput());
        }
        if (spec.volume().storageCapacityGiB() != null) {
            volume.put("storageCapacityGiB", spec.volume().storageCapacityGiB());
        }
        putText(volume, "s3ImportPath", spec.volume().s3ImportPath());
        putText(volume, "s3ExportPath", spec.volume().s3ExportPath());
        json.set("data", data(spec.data()));
        json.set("training", training(spec.training()));
        if (!spec.workload().sameAsBuiltin()) {
            json.set("workload", workload(spec.workload()));
        }
        ObjectNode evaluation =
                json.putObject("evaluation").put("metric", spec.evaluation().metric());
        if (spec.evaluation().min() != null) {
            evaluation.put("min", spec.evaluation().min());
        }
        if (spec.evaluation().max() != null) {
            evaluation.put("max", spec.evaluation().max());
        }
        putText(json.putObject("output"), "s3Uri", spec.output().s3Uri());
        json.putObject("cleanup")
                .put("keepCluster", spec.cleanup().keepCluster())
                .put("keepVolume", spec.cleanup().keepVolume());
        json.put("maxRunHours", spec.maxRunHours());
        if (spec.budgetUsd() != null) {
            json.put("budgetUsd", spec.budgetUsd());
        }
        return json;
    }

    /**
     * The gate: {@code metric}, {@code min}, {@code max}; or the shorthand {@code minAccuracy}, which
     * specs normalized before the metric form still hold (0 was no gate).
     */
    private static EvaluationSpec evaluation(JsonNode evaluation) {
        JsonNode shorthand = evaluation.path("minAccuracy");
        if (shorthand.isNumber()) {
            return EvaluationSpec.minAccuracy(shorthand.asDouble());
        }
        return new EvaluationSpec(
                evaluation.path("metric").isTextual()
                        ? evaluation.path("metric").asText()
                        : EvaluationSpec.DEFAULT_METRIC,
                number(evaluation.path("min")),
                number(evaluation.path("max")));
    }

    private static Double number(JsonNode node) {
        return node.isNumber() ? node.asDouble() : null;
    }

    private static ClusterSpec cluster(JsonNode cluster) {
        JsonNode nodeGroup = cluster.path("nodeGroup");
        return new ClusterSpec(
                spelled(ClusterMode.class, ClusterMode::json, cluster.path("mode")),
                text(cluster, "name"),
                text(cluster, "kubernetesVersion"),
                nodeGroup.isObject()
                        ? new NodeGroupSpec(
                                text(nodeGroup, "instanceType"),
                                texts(nodeGroup, "instanceTypes"),
                                nodeGroup.path("nodes").asInt(),
                                nodeGroup.path("gpusPerNode").asInt(),
                                spelled(CapacityType.class, CapacityType::json, nodeGroup.path("capacityType")),
                                text(nodeGroup, "capacityReservationId"),
                                nodeGroup.path("efa").asBoolean(),
                                nodeGroup.path("diskGiB").asInt(NodeDisk.EKS_DEFAULT_GIB))
                        : null,
                text(cluster, "nodegroupName"),
                cluster.path("nodes").isInt() ? cluster.path("nodes").asInt() : null,
                text(cluster, "instanceType"));
    }

    private static ObjectNode cluster(ClusterSpec cluster) {
        ObjectNode json = NODES.objectNode().put("mode", cluster.mode().json());
        putText(json, "name", cluster.name());
        putText(json, "kubernetesVersion", cluster.kubernetesVersion());
        putText(json, "nodegroupName", cluster.nodegroupName());
        if (cluster.nodes() != null) {
            json.put("nodes", cluster.nodes());
        }
        putText(json, "instanceType", cluster.instanceType());
        NodeGroupSpec nodeGroup = cluster.nodeGroup();
        if (nodeGroup != null) {
            ObjectNode group = json.putObject("nodeGroup");
            putText(group, "instanceType", nodeGroup.instanceType());
            if (nodeGroup.instanceTypes() != null) {
                nodeGroup.instanceTypes().forEach(group.putArray("instanceTypes")::add);
            }
            group.put("nodes", nodeGroup.nodes())
                    .put("gpusPerNode", nodeGroup.gpusPerNode())
                    .put("capacityType", nodeGroup.capacityType().json());
            putText(group, "capacityReservationId", nodeGroup.capacityReservationId());
            group.put("efa", nodeGroup.efa()).put("diskGiB", nodeGroup.diskGiB());
        }
        return json;
    }

    private static VolumeSpec volume(JsonNode volume) {
        return new VolumeSpec(
                spelled(VolumeType.class, VolumeType::json, volume.path("type")),
                text(volume, "fileSystemId"),
                text(volume, "deploymentType") == null
                        ? null
                        : LustreDeploymentType.valueOf(text(volume, "deploymentType")),
                volume.path("perUnitStorageThroughput").isInt()
                        ? volume.path("perUnitStorageThroughput").asInt()
                        : null,
                volume.path("storageCapacityGiB").isInt()
                        ? volume.path("storageCapacityGiB").asInt()
                        : null,
                text(volume, "s3ImportPath"),
                text(volume, "s3ExportPath"));
    }

    private static DataSpec data(JsonNode data) {
        return new DataSpec(
                spelled(DataSource.class, DataSource::json, data.path("source")),
                text(data, "url"),
                text(data, "s3Uri"),
                text(data, "sha256"),
                data.path("syntheticSamples").asInt());
    }

    private static ObjectNode data(DataSpec data) {
        ObjectNode json = NODES.objectNode().put("source", data.source().json());
        putText(json, "url", data.url());
        putText(json, "s3Uri", data.s3Uri());
        putText(json, "sha256", data.sha256());
        if (data.syntheticSamples() != 0) {
            json.put("syntheticSamples", data.syntheticSamples());
        }
        return json;
    }

    /** {@code image}: workload.image, which names the image in place of training.image when given. */
    private static TrainingSpec training(JsonNode training, String image) {
        return new TrainingSpec(
                spelled(Launcher.class, Launcher::json, training.path("launcher")),
                image != null ? image : text(training, "image"),
                training.path("workers").asInt(),
                training.path("procsPerWorker").asInt(),
                training.path("epochs").asInt(),
                training.path("batchSize").asInt(),
                training.path("learningRate").asDouble(),
                text(training, "cpu"),
                text(training, "memory"),
                training.path("gpusPerWorker").asInt(),
                training.path("maxRestarts").asInt(),
                training.path("maxInterruptions").asInt(),
                training.path("timeoutMinutes").asInt(),
                text(training, "resumeFrom"),
                training.path("secondsPerEpoch").isNumber()
                        ? training.path("secondsPerEpoch").asDouble()
                        : null);
    }

    private static ObjectNode training(TrainingSpec training) {
        ObjectNode json = NODES.objectNode().put("launcher", training.launcher().json());
        putText(json, "image", training.image());
        json.put("workers", training.workers())
                .put("procsPerWorker", training.procsPerWorker())
                .put("epochs", training.epochs())
                .put("batchSize", training.batchSize())
                .put("learningRate", training.learningRate());
        putText(json, "cpu", training.cpu());
        putText(json, "memory", training.memory());
        json.put("gpusPerWorker", training.gpusPerWorker())
                .put("maxRestarts", training.maxRestarts())
                .put("maxInterruptions", training.maxInterruptions())
                .put("timeoutMinutes", training.timeoutMinutes());
        putText(json, "resumeFrom", training.resumeFrom());
        if (training.secondsPerEpoch() != null) {
            json.put("secondsPerEpoch", training.secondsPerEpoch());
        }
        return json;
    }

    /** The workload section; {@link WorkloadSpec#BUILTIN} when the spec has none. */
    private static WorkloadSpec workload(JsonNode workload) {
        if (!workload.isObject()) {
            return WorkloadSpec.BUILTIN;
        }
        JsonNode commands = workload.path("commands");
        Map<String, JsonNode> hyperparameters = new LinkedHashMap<>();
        workload.path("hyperparameters").properties().forEach(e -> hyperparameters.put(e.getKey(), e.getValue()));
        return new WorkloadSpec(
                text(workload, "image"),
                workload.path("code").isTextual()
                        ? WorkloadCode.parse(workload.path("code").asText())
                        : WorkloadCode.BUILTIN,
                spelled(TrainLauncher.class, TrainLauncher::json, workload.path("launcher")),
                commands.isObject()
                        ? new WorkloadCommands(
                                command(commands.path("prepare")),
                                command(commands.path("train")),
                                command(commands.path("evaluate")))
                        : null,
                hyperparameters,
                codePackage(workload.path("package")));
    }

    private static CodePackage codePackage(JsonNode json) {
        if (!json.isObject()) {
            return null;
        }
        return new CodePackage(
                CodePackage.Route.of(json.path("route").asText()),
                texts(json, "files"),
                json.path("bytes").asLong(),
                json.path("sha256").asText(),
                text(json, "s3Uri"));
    }

    private static WorkloadCommand command(JsonNode command) {
        if (!command.isObject()) {
            return null;
        }
        Map<String, String> env = new LinkedHashMap<>();
        Map<String, SecretRef> secrets = new LinkedHashMap<>();
        command.path("env").properties().forEach(e -> SecretRef.of(e.getValue())
                .ifPresentOrElse(
                        ref -> secrets.put(e.getKey(), ref),
                        () -> env.put(e.getKey(), e.getValue().asText())));
        return new WorkloadCommand(texts(command, "args"), env, secrets);
    }

    private static ObjectNode workload(WorkloadSpec workload) {
        ObjectNode json = NODES.objectNode();
        putText(json, "image", workload.image());
        json.put("code", workload.code().json())
                .put("launcher", workload.launcher().json());
        if (workload.commands() != null) {
            ObjectNode commands = json.putObject("commands");
            putCommand(commands, "prepare", workload.prepare());
            putCommand(commands, "train", workload.train());
            putCommand(commands, "evaluate", workload.evaluate());
        }
        if (!workload.hyperparameters().isEmpty()) {
            workload.hyperparameters().forEach(json.putObject("hyperparameters")::set);
        }
        CodePackage packed = workload.codePackage();
        if (packed != null) {
            ObjectNode p = json.putObject("package").put("route", packed.route().json());
            if (!packed.files().isEmpty()) {
                packed.files().forEach(p.putArray("files")::add);
            }
            p.put("bytes", packed.bytes()).put("sha256", packed.sha256());
            putText(p, "s3Uri", packed.s3Uri());
        }
        return json;
    }

    private static void putCommand(ObjectNode commands, String role, WorkloadCommand command) {
        if (command == null) {
            return;
        }
        ObjectNode json = commands.putObject(role);
        command.args().forEach(json.putArray("args")::add);
        if (!command.env().isEmpty() || !command.secrets().isEmpty()) {
            ObjectNode env = json.putObject("env");
            command.env().forEach(env::put);
            command.secrets().forEach((name, ref) -> env.set(name, ref.toJson()));
        }
    }

    private static IllegalArgumentException missing(String field, Exception cause) {
        return new IllegalArgumentException("not a normalized run spec: " + field + " is missing", cause);
    }

    private static JsonNode part(JsonNode spec, String name) {
        JsonNode part = spec.path(name);
        if (!part.isObject()) {
            throw missing(name, null);
        }
        return part;
    }

    private static String text(JsonNode object, String field) {
        JsonNode value = object.path(field);
        return value.isTextual() ? value.textValue() : null;
    }

    /** The strings of an array field; null when absent. */
    private static java.util.List<String> texts(JsonNode object, String field) {
        JsonNode value = object.path(field);
        if (!value.isArray()) {
            return null;
        }
        java.util.List<String> texts = new java.util.ArrayList<>();
        value.forEach(item -> texts.add(item.asText()));
        return texts;
    }

    private static void putText(ObjectNode object, String field, String value) {
        if (value != null) {
            object.put(field, value);
        }
    }

    /** The constant of {@code type} spelled {@code value} in the spec; null when absent. */
    private static <E extends Enum<E>> E spelled(Class<E> type, Function<E, String> spelling, JsonNode value) {
        if (value.isMissingNode() || value.isNull()) {
            return null;
        }
        for (E constant : type.getEnumConstants()) {
            if (spelling.apply(constant).equals(value.asText())) {
                return constant;
            }
        }
        throw new IllegalArgumentException("not a normalized run spec: " + value + " is no " + type.getSimpleName());
    }
}
