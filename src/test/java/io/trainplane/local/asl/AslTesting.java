package io.trainplane.local.asl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Shared fixtures: a fixed simulated clock, JSON helpers, and a scripted task invoker. */
final class AslTesting {
    static final Instant T0 = Instant.parse("2024-05-01T12:00:00Z");
    static final ObjectMapper MAPPER = new ObjectMapper();

    private AslTesting() {}

    static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    static StateMachine machine(String definition) {
        return StateMachine.parse(definition, Map.of());
    }

    /** A definition with one state named "S" and the given body. */
    static String single(String stateBody) {
        return "{\"StartAt\": \"S\", \"States\": {\"S\": " + stateBody + "}}";
    }

    /** Runs a definition on a fresh clock starting at {@link #T0}. */
    static Run run(String definition, String input, TaskInvoker invoker) {
        return run(definition, input, invoker, ExecutionListener.NONE);
    }

    static Run run(String definition, String input, TaskInvoker invoker, ExecutionListener listener) {
        return run(definition, input, invoker, listener, new SimulatedClock(T0));
    }

    static Run run(
            String definition, String input, TaskInvoker invoker, ExecutionListener listener, SimulatedClock clock) {
        ExecutionResult result =
                new Executor(clock).execute(machine(definition), "run-1", json(input), invoker, listener);
        return new Run(result, clock);
    }

    record Run(ExecutionResult result, SimulatedClock clock) {
        JsonNode output() {
            return result.output();
        }

        List<String> types() {
            return result.history().stream().map(HistoryEvent::type).toList();
        }

        /** Seconds of simulated time between the start and each event of a type. */
        List<Long> secondsOf(String type) {
            return result.events(type).stream()
                    .map(e -> Duration.between(T0, e.timestamp()).toSeconds())
                    .toList();
        }
    }

    /** An invoker that answers each call with the next scripted step and records what it was given. */
    static final class Script implements TaskInvoker {
        interface Step {
            JsonNode answer(JsonNode payload, TaskContext context) throws TaskFailure;
        }

        private final List<Step> steps = new ArrayList<>();
        final List<JsonNode> payloads = new ArrayList<>();
        final List<TaskContext> contexts = new ArrayList<>();
        final List<String> resources = new ArrayList<>();

        Script returns(String json) {
            steps.add((payload, context) -> json(json));
            return this;
        }

        Script fails(String error, String cause) {
            steps.add((payload, context) -> {
                throw new TaskFailure(error, cause);
            });
            return this;
        }

        Script then(Step step) {
            steps.add(step);
            return this;
        }

        int calls() {
            return payloads.size();
        }

        @Override
        public JsonNode invoke(String resource, JsonNode payload, TaskContext context) throws TaskFailure {
            if (payloads.size() >= steps.size()) {
                throw new AssertionError("unexpected call " + (payloads.size() + 1) + " to " + resource);
            }
            Step step = steps.get(payloads.size());
            resources.add(resource);
            payloads.add(payload);
            contexts.add(context);
            return step.answer(payload, context);
        }
    }

    static Script script() {
        return new Script();
    }
}
