package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * Where the workload's code comes from ({@code workload.code}), spelled as one string in the spec:
 * {@code "builtin"}, {@code "image"}, an {@code s3://bucket/prefix/}, or else a local directory
 * (relative to the spec file's directory, or absolute) that the CLI packs and ships with the run.
 */
public sealed interface WorkloadCode {
    Builtin BUILTIN = new Builtin();
    Image IMAGE = new Image();

    /** The spelling in the run spec. */
    @JsonValue
    String json();

    /** Whether the spec's commands run your code (every route but the built-in scripts). */
    default boolean yours() {
        return !(this instanceof Builtin);
    }

    /** Whether the pods get the code at /workload from somewhere else than the image. */
    default boolean shipped() {
        return this instanceof Directory || this instanceof S3Prefix;
    }

    /** {@code "builtin"}, {@code "image"}, an {@code s3://} prefix, or a directory. */
    @JsonCreator
    static WorkloadCode parse(String text) {
        Objects.requireNonNull(text, "code");
        return switch (text) {
            case "builtin" -> BUILTIN;
            case "image" -> IMAGE;
            default -> text.startsWith(S3Prefix.SCHEME) ? new S3Prefix(text) : new Directory(text);
        };
    }

    /** The built-in CIFAR-10 scripts from the jar, mounted at /workload from the run's ConfigMap. */
    record Builtin() implements WorkloadCode {
        @Override
        public String json() {
            return "builtin";
        }

        @Override
        public String toString() {
            return json();
        }
    }

    /** The image already contains the code; the spec's commands run it. */
    record Image() implements WorkloadCode {
        @Override
        public String json() {
            return "image";
        }

        @Override
        public String toString() {
            return json();
        }
    }

    /**
     * A local directory, as the spec gives it: the CLI checks and packs it ({@link CodeDirectory})
     * and the pods find its files at /workload.
     */
    record Directory(String path) implements WorkloadCode {
        public Directory {
            Objects.requireNonNull(path, "path");
        }

        @Override
        public String json() {
            return path;
        }

        @Override
        public String toString() {
            return json();
        }
    }

    /** An {@code s3://bucket/prefix/} whose objects an init container copies to /workload. */
    record S3Prefix(String uri) implements WorkloadCode {
        public static final String SCHEME = "s3://";

        public S3Prefix {
            Objects.requireNonNull(uri, "uri");
        }

        /** The prefix, with a trailing '/' so that {@code s3://b/code} does not also copy {@code s3://b/code2/}. */
        public String prefix() {
            return uri.endsWith("/") ? uri : uri + "/";
        }

        public String bucket() {
            String rest = uri.substring(SCHEME.length());
            int slash = rest.indexOf('/');
            return slash < 0 ? rest : rest.substring(0, slash);
        }

        @Override
        public String json() {
            return uri;
        }

        @Override
        public String toString() {
            return json();
        }
    }
}
