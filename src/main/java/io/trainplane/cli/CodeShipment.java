package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.CodeDirectory;
import io.trainplane.spec.CodePackage;
import io.trainplane.spec.WorkloadCode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * A local directory as {@code workload.code}, packed by the CLI: checked against the spec file's
 * directory, described in the spec ({@code workload.package}: the route, files, size, digest;
 * never the files), and delivered where its route takes it: the ConfigMap route's files beside
 * the run's record in the Runs table (the steps that make the ConfigMap read them), the bucket
 * route's under {@code code/} of the run's prefix in the stack's artifacts bucket (fetch-code copies them).
 */
record CodeShipment(CodeDirectory.Packed packed, CodePackage described, String runId) {
    /** The bucket's name in a plan, which knows no stack. */
    static final String PLANNED_BUCKET = "ARTIFACTS-BUCKET";

    /**
     * Packs workload.code when it names a directory and writes its package into {@code normalized};
     * empty for the other routes. Throws InvalidSpecException for a directory that cannot be shipped.
     */
    static Optional<CodeShipment> pack(SpecInput input, ObjectNode normalized, String runId, String artifactsBucket) {
        JsonNode code = normalized.at("/workload/code");
        if (!code.isTextual()
                || !(io.trainplane.spec.RunSpecs.fromNormalized(normalized)
                                .workload()
                                .code()
                        instanceof WorkloadCode.Directory directory)) {
            return Optional.empty();
        }
        Path base = "-".equals(input.path)
                ? Path.of("").toAbsolutePath()
                : Path.of(input.path).toAbsolutePath().getParent();
        CodeDirectory.Packed packed = CodeDirectory.pack(directory, base);
        CodePackage described = packed.describe("s3://" + artifactsBucket + "/" + prefix(runId));
        ObjectNode p = ((ObjectNode) normalized.get("workload")).putObject("package");
        p.put("route", described.route().json());
        if (!described.files().isEmpty()) {
            described.files().forEach(p.putArray("files")::add);
        }
        p.put("bytes", described.bytes()).put("sha256", described.sha256());
        if (described.s3Uri() != null) {
            p.put("s3Uri", described.s3Uri());
        }
        return Optional.of(new CodeShipment(packed, described, runId));
    }

    /** The bucket route's key prefix: under the run's prefix, which its pods' Pod Identity may read. */
    static String prefix(String runId) {
        return new io.trainplane.spec.Names(runId).artifactsPrefix() + "code/";
    }

    /** Sends the code where its route takes it: {@code store} for the ConfigMap route, {@code put(key, bytes)} for the bucket's. */
    void deliver(RunStore store, BiConsumer<String, byte[]> put) {
        if (described.route() == CodePackage.Route.CONFIGMAP) {
            store.putCode(runId, described.sha256(), CodeDirectory.archive(packed.files()));
            return;
        }
        for (Map.Entry<String, byte[]> file : packed.files().entrySet()) {
            put.accept(prefix(runId) + file.getKey(), file.getValue());
        }
    }

    /** The bucket route's keys, one a file: the same for every delivery of this runId and directory. */
    java.util.Set<String> keys() {
        java.util.Set<String> keys = new java.util.TreeSet<>();
        packed.files().keySet().forEach(path -> keys.add(prefix(runId) + path));
        return keys;
    }

    /** One line for people: what is shipped and how. */
    String summary() {
        return "code " + packed.root() + ": " + packed.files().size() + " files, " + packed.bytes() + " bytes, via "
                + (described.route() == CodePackage.Route.CONFIGMAP
                        ? "the run's ConfigMap"
                        : "the artifacts bucket (" + described.s3Uri() + ")");
    }
}
