package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One role's command of {@code workload.commands}: the program and its arguments as a list (run
 * without a shell, as a container's {@code command}) and environment variables in given order.
 */
public record WorkloadCommand(List<String> args, @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> env) {
    public WorkloadCommand {
        args = List.copyOf(Objects.requireNonNull(args, "args"));
        env = env == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(env));
    }
}
