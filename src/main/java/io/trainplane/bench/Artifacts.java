package io.trainplane.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Size of the Lambda artifact per function group. Every function ships the same jar
 * (target/trainplane-lambda.jar, see the Makefile), so each group's artifact is that jar; the
 * second figure is what a group would ship without the Kubernetes client (io/fabric8, zjsonpatch,
 * snakeyaml), from the compressed sizes of the jar's entries. Run with {@code ./bench/run artifacts}.
 */
public final class Artifacts {
    /** Functions whose steps connect to a cluster's Kubernetes API (the workflow's Kubernetes users, read from the sources). */
    static final List<String> KUBERNETES = List.of("CreateCluster", "CheckCluster", "ConfigureCluster", "ConnectCluster",
            "CheckVolume", "BindVolume", "StartDataJob", "StartTraining", "CheckTraining", "StartEvaluation", "CheckJob",
            "CollectResults", "Teardown");
    static final List<String> OTHERS = List.of("StartRun", "CreateNodegroup", "CheckNodegroup", "CreateVolume",
            "RecordFailure", "FinishRun", "CloseRun", "SafetyNet", "Janitor", "StartScheduledRun");
    static final long BUDGET = 25L * 1024 * 1024;

    public static void main(String[] args) throws IOException {
        Path jar = Path.of(args.length > 0 ? args[0] : ".").resolve("target/trainplane-lambda.jar");
        long size = Files.size(jar);
        long kubernetes = 0;
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry e : zip.stream().toList()) {
                String name = e.getName();
                if (name.startsWith("io/fabric8/") || name.startsWith("org/yaml/snakeyaml/")
                        || name.startsWith("META-INF/maven/io.fabric8/")) {
                    kubernetes += e.getCompressedSize() + 30 + 46 + 2L * name.length();
                }
            }
        }
        System.out.printf(Locale.ROOT, "Lambda artifact %s: %.1f MB (budget 25 MB = 26.2 MB decimal): every function ships it%n",
                jar, size / 1e6);
        System.out.printf(Locale.ROOT, "  Kubernetes functions (%d) %.1f MB: %s%n", KUBERNETES.size(), size / 1e6,
                String.join(" ", KUBERNETES));
        System.out.printf(Locale.ROOT, "  other functions (%d)      %.1f MB now; %.1f MB without the Kubernetes client"
                + " (fabric8, snakeyaml: %.1f MB): %s%n", OTHERS.size(), size / 1e6, (size - kubernetes) / 1e6,
                kubernetes / 1e6, String.join(" ", OTHERS));
        System.out.printf(Locale.ROOT, "%s  artifact <= 25 MB (%.1f %% of the budget)%n", size <= BUDGET ? "PASS" : "FAIL",
                100.0 * size / BUDGET);
    }
}
