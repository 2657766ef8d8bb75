package io.trainplane.workflow;

import io.trainplane.workflow.LambdaFunction.Role;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What template.yaml gives one function beyond the Globals every function shares: its Description,
 * its execution role and, for a few, their own Timeout, a Condition, environment variables and the
 * events that invoke them. {@link TemplateFunctions} writes the function's resources from it.
 *
 * @param timeout     the function's own Timeout, or null for the Globals'
 * @param condition   the template condition the function and its log group are created under, or null
 * @param environment variable name to its value as template.yaml writes it ({@code !Ref Cleanup}),
 *                    beside the Globals' variables
 * @param events      the SAM Events property as YAML (indented from column 0), or empty for none
 */
public record FunctionDeployment(
        String description,
        Role role,
        Duration timeout,
        String condition,
        Map<String, String> environment,
        String events) {
    /** Lambda's limits: a description of 256 characters, a timeout of 15 minutes, a variable's name. */
    private static final int DESCRIPTION_LIMIT = 256;

    private static final Duration TIMEOUT_LIMIT = Duration.ofMinutes(15);
    private static final Pattern VARIABLE = Pattern.compile("[a-zA-Z][a-zA-Z0-9_]+");

    public FunctionDeployment {
        Objects.requireNonNull(role);
        if (description == null || description.isBlank() || description.length() > DESCRIPTION_LIMIT) {
            throw new IllegalArgumentException("a function's description is 1 to 256 characters: " + description);
        }
        if (timeout != null
                && (timeout.toNanos() % 1_000_000_000 != 0
                        || timeout.compareTo(Duration.ofSeconds(1)) < 0
                        || timeout.compareTo(TIMEOUT_LIMIT) > 0)) {
            throw new IllegalArgumentException("a function's timeout is whole seconds, 1 to 900: " + timeout);
        }
        environment.keySet().forEach(name -> {
            if (!VARIABLE.matcher(name).matches()) {
                throw new IllegalArgumentException("not an environment variable's name: " + name);
            }
        });
        environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        Objects.requireNonNull(events);
    }

    /** A function with the Globals' settings, this description and this role. */
    public static FunctionDeployment of(String description, Role role) {
        return new FunctionDeployment(description, role, null, null, Map.of(), "");
    }

    public FunctionDeployment withTimeout(Duration timeout) {
        return new FunctionDeployment(description, role, timeout, condition, environment, events);
    }

    public FunctionDeployment withCondition(String condition) {
        return new FunctionDeployment(description, role, timeout, condition, environment, events);
    }

    /** One more environment variable; {@code value} as template.yaml writes it. */
    public FunctionDeployment withVariable(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(environment);
        more.put(name, value);
        return new FunctionDeployment(description, role, timeout, condition, more, events);
    }

    public FunctionDeployment withEvents(String events) {
        return new FunctionDeployment(description, role, timeout, condition, environment, events);
    }
}
