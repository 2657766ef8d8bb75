package io.trainplane.runs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.spec.RunSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The identity of a run's spec: SHA-256 of the spec JSON string (UTF-8), lower-case hex. */
public final class SpecHash {
    private SpecHash() {}

    public static String of(String specJson) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha256.digest(specJson.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * The identity of the work a spec asks for, which earlier runs time ({@link PastEpochs}): the
     * hash of its cluster, data, training and workload sections, without what differs between runs
     * of the same work (the runId, the output prefix and budget StartRun writes into the stored
     * spec, training.resumeFrom, the code package's per-run S3 URI) and training.secondsPerEpoch
     * (an estimate, not the work).
     */
    public static String ofWork(RunSpec spec) {
        ObjectNode json = spec.toJson();
        json.retain("cluster", "data", "training", "workload");
        if (json.path("training") instanceof ObjectNode training) {
            training.remove(java.util.List.of("secondsPerEpoch", "resumeFrom"));
        }
        if (json.path("workload").path("package") instanceof ObjectNode codePackage) {
            codePackage.remove("s3Uri");
        }
        return of(json.toString());
    }
}
