package io.trainplane.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The default workload's scripts, shipped in the jar and mounted into a stock image. */
public final class WorkloadScripts {
    static final List<String> FILES = List.of("prepare.py", "model.py", "train.py", "evaluate.py");

    private WorkloadScripts() {}

    public static Map<String, String> all() {
        Map<String, String> scripts = new LinkedHashMap<>();
        for (String file : FILES) {
            scripts.put(file, read(file));
        }
        return scripts;
    }

    private static String read(String file) {
        try (InputStream in = WorkloadScripts.class.getResourceAsStream("/workload/" + file)) {
            if (in == null) {
                throw new IllegalStateException("workload script missing from the jar: " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
