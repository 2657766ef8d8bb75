package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One role's command of {@code workload.commands}: the program and its arguments as a list (run
 * without a shell, as a container's {@code command}) and environment variables in given order:
 * plain values in {@code env}, and in {@code secrets} those the pod reads from Secrets Manager or
 * SSM itself ({@link SecretRef}; the spec holds only the reference).
 */
public record WorkloadCommand(
        List<String> args,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> env,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, SecretRef> secrets) {
    public WorkloadCommand {
        args = List.copyOf(Objects.requireNonNull(args, "args"));
        env = env == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(env));
        secrets = secrets == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(secrets));
    }

    public WorkloadCommand(List<String> args, Map<String, String> env) {
        this(args, env, Map.of());
    }
}
