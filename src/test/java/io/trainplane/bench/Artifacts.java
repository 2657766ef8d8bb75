package io.trainplane.bench;

import io.trainplane.workflow.LambdaArtifact;
import io.trainplane.workflow.LambdaFunction;
import io.trainplane.workflow.Pipeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Size of the Lambda artifacts against the budget (DESIGN §9: 25 MB each), per artifact and per
 * function: each function ships the jar {@link LambdaFunction#artifact()} names, as the Makefile
 * builds it; and the headroom target (issue 19): each artifact under 85 % of the budget, so that
 * new launchers and volumes fit. Run with {@code ./bench/run artifacts}; exits 1 when one is over
 * either.
 */
public final class Artifacts {
    static final long BUDGET = 25L * 1024 * 1024;
    /** 85 % of the budget: 22,282,240 bytes. */
    static final long HEADROOM_LIMIT = BUDGET * 85 / 100;

    public static void main(String[] args) throws IOException {
        Path target = Path.of(args.length > 0 ? args[0] : ".").resolve("target");
        Map<LambdaArtifact, Long> sizes = new EnumMap<>(LambdaArtifact.class);
        for (LambdaArtifact artifact : LambdaArtifact.values()) {
            sizes.put(artifact, Files.size(target.resolve(artifact.jarName())));
        }
        System.out.printf(Locale.ROOT, "Lambda artifacts (budget 25 MB = %,d bytes each):%n", BUDGET);
        for (LambdaArtifact artifact : LambdaArtifact.values()) {
            long size = sizes.get(artifact);
            System.out.printf(
                    Locale.ROOT,
                    "%s  %-40s %,11d bytes %5.1f MB (%3.0f %% of the budget), %2d functions%n",
                    verdict(size),
                    "target/" + artifact.jarName(),
                    size,
                    size / 1e6,
                    100.0 * size / BUDGET,
                    Pipeline.shipping(artifact).size());
        }
        System.out.println("Per function:");
        for (LambdaFunction function : Pipeline.FUNCTIONS) {
            LambdaArtifact artifact = function.artifact();
            long size = sizes.get(artifact);
            System.out.printf(
                    Locale.ROOT,
                    "%s  %-18s %-33s %5.1f MB%n",
                    verdict(size),
                    function.name(),
                    artifact.jarName(),
                    size / 1e6);
        }
        System.out.printf(
                Locale.ROOT, "Headroom (each artifact under 85 %% of the budget = %,d bytes):%n", HEADROOM_LIMIT);
        for (LambdaArtifact artifact : LambdaArtifact.values()) {
            long size = sizes.get(artifact);
            System.out.printf(
                    Locale.ROOT,
                    "%s  %-40s %,11d bytes, %,d bytes to spare%n",
                    headroomVerdict(size),
                    "target/" + artifact.jarName(),
                    size,
                    HEADROOM_LIMIT - size);
        }
        if (sizes.values().stream().anyMatch(size -> size > BUDGET || size >= HEADROOM_LIMIT)) {
            System.exit(1);
        }
    }

    static String verdict(long size) {
        return size <= BUDGET ? "PASS" : "FAIL";
    }

    static String headroomVerdict(long size) {
        return size < HEADROOM_LIMIT ? "PASS" : "FAIL";
    }
}
