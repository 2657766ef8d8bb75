package io.trainplane.kubernetes;

import io.trainplane.spec.CodePackage;
import io.trainplane.spec.InvalidSpecException;
import io.trainplane.spec.SpecProblem;
import io.trainplane.spec.WorkloadCode;
import io.trainplane.spec.WorkloadSpec;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** How the pods get the workload's code, as {@code plan} names it. */
public enum CodeRoute {
    /** The built-in scripts, from the run's ConfigMap at /workload. */
    BUILTIN("builtin"),
    /** Inside the image; the built-in scripts are still at /workload. */
    IMAGE("image"),
    /** A small local directory, in the run's ConfigMap at /workload. */
    CONFIGMAP("configmap"),
    /** A larger local directory, uploaded by the CLI to the stack's artifacts bucket and copied by fetch-code. */
    ARTIFACTS_BUCKET("artifacts bucket"),
    /** workload.code's s3:// prefix, copied by fetch-code. */
    S3_PREFIX("s3 prefix");

    /** The built-in scripts' keys when your files share the ConfigMap. */
    static final String BUILTIN_KEY_PREFIX = "trainplane.";

    /** What a ConfigMap key may hold (https://kubernetes.io/docs/concepts/configuration/configmap/). */
    private static final Pattern KEY = Pattern.compile("[-._a-zA-Z0-9]+");

    private final String text;

    CodeRoute(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    /**
     * The route of {@code workload}. A local directory has one once the CLI has packed it: a spec
     * that reaches the pipeline without its package did not come through the CLI.
     */
    public static CodeRoute of(WorkloadSpec workload) {
        return switch (workload.code()) {
            case WorkloadCode.Builtin b -> BUILTIN;
            case WorkloadCode.Image i -> IMAGE;
            case WorkloadCode.S3Prefix p -> S3_PREFIX;
            case WorkloadCode.Directory d -> {
                CodePackage packed = workload.codePackage();
                if (packed == null) {
                    throw new InvalidSpecException(
                            new SpecProblem(
                                    "/workload/code",
                                    "\"" + d.path()
                                            + "\" is a local directory, which only the trainplane CLI can pack and"
                                            + " ship: this spec did not come through it",
                                    "start the run with `trainplane start --stack STACK SPEC`, or upload the directory"
                                            + " (aws s3 sync DIR s3://BUCKET/PREFIX/) and give \"code\": \"s3://BUCKET/PREFIX/\""));
                }
                yield packed.route() == CodePackage.Route.CONFIGMAP ? CONFIGMAP : ARTIFACTS_BUCKET;
            }
        };
    }

    /** Whether an init container copies the code from S3 into an emptyDir. */
    public boolean fetched() {
        return this == ARTIFACTS_BUCKET || this == S3_PREFIX;
    }

    /** The s3:// prefix fetch-code copies, ending in '/'. */
    String prefix(WorkloadSpec workload) {
        return switch (this) {
            case S3_PREFIX -> ((WorkloadCode.S3Prefix) workload.code()).prefix();
            case ARTIFACTS_BUCKET -> workload.codePackage().s3Uri();
            default -> throw new IllegalStateException("the code of route " + text + " is not fetched");
        };
    }

    /**
     * Each packed file's ConfigMap key, by path: the path itself when it is a valid key (a file at
     * the top), else {@code <n>.<path with '/' as '.'>}; the volume's items map keys back to paths.
     */
    public static Map<String, String> configMapKeys(List<String> files) {
        Map<String, String> keys = new LinkedHashMap<>();
        Set<String> taken = new HashSet<>();
        for (String file : files) {
            if (KEY.matcher(file).matches() && !file.startsWith(BUILTIN_KEY_PREFIX)) {
                taken.add(file);
            }
        }
        int n = 0;
        for (String file : files) {
            String key = KEY.matcher(file).matches() && !file.startsWith(BUILTIN_KEY_PREFIX) ? file : null;
            while (key == null || (!key.equals(file) && taken.contains(key))) {
                key = (n++) + "." + file.replaceAll("[^-._a-zA-Z0-9]", ".");
            }
            taken.add(key);
            keys.put(file, key);
        }
        return keys;
    }
}
