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
     * The identity of the work a spec asks for: the hash of its normalized JSON without the runId
     * (each run has its own) and training.secondsPerEpoch (an estimate, not the work), so that the
     * runs of one spec under several runIds share it.
     */
    public static String ofWork(RunSpec spec) {
        ObjectNode json = spec.toJson();
        json.remove("runId");
        if (json.path("training") instanceof ObjectNode training) {
            training.remove("secondsPerEpoch");
        }
        return of(json.toString());
    }
}
