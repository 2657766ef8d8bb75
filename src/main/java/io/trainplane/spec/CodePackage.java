package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Objects;

/**
 * How a local directory's code ({@link WorkloadCode.Directory}) travels with the run, written into
 * the spec by the CLI that packed it ({@code workload.package}); never the code itself, which
 * would ride in every state's input (Step Functions allows 256 KiB,
 * https://docs.aws.amazon.com/step-functions/latest/dg/limits-overview.html).
 *
 * @param route where the pods get the files from
 * @param files the files' paths relative to the directory, '/'-separated, sorted (the ConfigMap
 *     route maps each to its key; empty for the bucket route)
 * @param bytes the files' total size
 * @param sha256 the digest of the package ({@link CodeDirectory#digest}): a rerun with other code is another spec
 * @param s3Uri the bucket route's prefix in the stack's artifacts bucket, {@code s3://bucket/runs/<runId>/code/}; null for the ConfigMap route
 */
public record CodePackage(
        Route route,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> files,
        long bytes,
        String sha256,
        @JsonInclude(JsonInclude.Include.NON_NULL) String s3Uri) {
    public CodePackage {
        Objects.requireNonNull(route, "route");
        files = files == null ? List.of() : List.copyOf(files);
        Objects.requireNonNull(sha256, "sha256");
    }

    /** Where the pods find a packed directory. */
    public enum Route {
        /**
         * In the run's ConfigMap {@code <runId>-workload}, mounted at /workload: the files are kept
         * beside the run's record (the Runs table's {@code CODE} item) until the step that makes
         * the ConfigMap reads them.
         */
        CONFIGMAP("configmap"),
        /** Under a prefix of the stack's artifacts bucket, copied by an init container into an emptyDir at /workload. */
        BUCKET("bucket");

        private final String json;

        Route(String json) {
            this.json = json;
        }

        @JsonValue
        public String json() {
            return json;
        }

        @JsonCreator
        public static Route of(String json) {
            for (Route route : values()) {
                if (route.json.equals(json)) {
                    return route;
                }
            }
            throw new IllegalArgumentException("no code route " + json);
        }
    }
}
