package io.trainplane.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What runs in the pods ({@code workload}): the image (null: {@code training.image}, which then
 * holds the image either way), where the code comes from, each role's command (null: the built-in
 * one), the hyperparameters and what launches the train command. Absent from a spec, it is {@link
 * #BUILTIN}: the CIFAR-10 scripts of the jar, as before the section existed.
 *
 * <p>Hyperparameter values are the spec's scalars (string, number, boolean nodes); they reach
 * the train command as {@code --key value} and every container of the workload as
 * {@code TRAINPLANE_HP_<KEY>} (docs/workload-contract.md). {@code codePackage} ({@code package}
 * in JSON) says how a local directory's code travels: written by the CLI that packed it, null
 * before and for the other routes.
 */
public record WorkloadSpec(
        String image,
        WorkloadCode code,
        TrainLauncher launcher,
        WorkloadCommands commands,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, JsonNode> hyperparameters,
        @JsonProperty("package") @JsonInclude(JsonInclude.Include.NON_NULL) CodePackage codePackage) {
    public static final WorkloadSpec BUILTIN =
            new WorkloadSpec(null, WorkloadCode.BUILTIN, TrainLauncher.TORCHRUN, null, Map.of(), null);

    /** The prefix of the environment variables that carry the hyperparameters. */
    public static final String HYPERPARAMETER_ENV_PREFIX = "TRAINPLANE_HP_";

    public WorkloadSpec {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(launcher, "launcher");
        hyperparameters =
                hyperparameters == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(hyperparameters));
    }

    public WorkloadCommand prepare() {
        return commands == null ? null : commands.prepare();
    }

    public WorkloadCommand train() {
        return commands == null ? null : commands.train();
    }

    public WorkloadCommand evaluate() {
        return commands == null ? null : commands.evaluate();
    }

    /** Whether this is the default: the built-in scripts, nothing changed (the spec leaves it out). */
    public boolean sameAsBuiltin() {
        return equals(BUILTIN);
    }

    /**
     * How many epochs the training runs, as far as Trainplane can tell: {@code builtin}'s
     * training.epochs, your code's integer hyperparameter {@code epochs} when it has one, else
     * {@code builtin}'s.
     */
    public int epochs(int builtinEpochs) {
        JsonNode epochs = hyperparameters.get("epochs");
        return code.yours()
                        && epochs != null
                        && epochs.canConvertToExactIntegral()
                        && epochs.canConvertToInt()
                        && epochs.asInt() > 0
                ? epochs.asInt()
                : builtinEpochs;
    }

    /** {@code --key value} for each hyperparameter, in the spec's order. */
    public List<String> hyperparameterArguments() {
        List<String> arguments = new ArrayList<>();
        hyperparameters.forEach((key, value) -> {
            arguments.add("--" + key);
            arguments.add(text(value));
        });
        return arguments;
    }

    /** {@code TRAINPLANE_HP_<KEY>} → value for each hyperparameter, in the spec's order. */
    public Map<String, String> hyperparameterEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        hyperparameters.forEach((key, value) -> env.put(hyperparameterEnvName(key), text(value)));
        return env;
    }

    public static String hyperparameterEnvName(String key) {
        return HYPERPARAMETER_ENV_PREFIX + key.toUpperCase(Locale.ROOT);
    }

    /** A hyperparameter as an argument: numbers in plain notation (1e-4 as 0.0001), booleans as true/false. */
    static String text(JsonNode value) {
        if (value.isFloatingPointNumber()) {
            return value.decimalValue().stripTrailingZeros().toPlainString();
        }
        return value.asText();
    }

    /** Leaves the default workload out of the normalized spec (Jackson's custom inclusion: true excludes). */
    public static final class BuiltinFilter {
        @Override
        public boolean equals(Object value) {
            return value == null || BUILTIN.equals(value);
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }
}
