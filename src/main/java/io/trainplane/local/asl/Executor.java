package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Runs state machines locally, in the calling thread, on simulated time: Wait states and retry
 * intervals advance the {@link SimulatedClock} instead of sleeping, so an execution that takes
 * hours on AWS takes as long here as its tasks' own work.
 */
public final class Executor {
    /** Step Functions' execution names: 1 to 80 characters, none of whitespace or these. */
    private static final Pattern NAME = Pattern.compile("[^\\s<>{}\\[\\]?*\"#%\\\\^|~`$&,;:/\\p{Cntrl}]{1,80}");

    private final SimulatedClock clock;

    public Executor(SimulatedClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Runs one execution to its end.
     *
     * @param input the execution input; null is taken as {}
     * @param listener observes the execution; {@link ExecutionListener#NONE} for none
     * @throws IllegalArgumentException when the execution name is not one Step Functions accepts
     */
    public ExecutionResult execute(
            StateMachine machine,
            String executionName,
            JsonNode input,
            TaskInvoker invoker,
            ExecutionListener listener) {
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(invoker, "invoker");
        if (executionName == null || !NAME.matcher(executionName).matches()) {
            throw new IllegalArgumentException("invalid execution name: '" + executionName + "'");
        }
        JsonNode executionInput = input == null ? Json.object() : input.deepCopy();
        Instant start = clock.instant();
        History history = new History(clock, listener == null ? ExecutionListener.NONE : listener);
        ContextObject context = new ContextObject(machine.name(), executionName, start, executionInput);
        ExecutionEnvironment env = ExecutionEnvironment.create(
                executionName,
                clock,
                new Deadline(clock, start, machine.timeoutSeconds()),
                history,
                context,
                invoker,
                listener == null ? ExecutionListener.NONE : listener);
        return new Execution(machine, env, executionInput, start).run();
    }
}
