package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.time.Instant;

/**
 * One execution of a state machine: the loop from StartAt to a terminal state, the Pass, Wait,
 * Choice, Succeed and Fail states, and how the execution closes (succeeded, failed, timed out,
 * aborted). Task states are run by {@link TaskRunner}.
 */
final class Execution {
    /** A state's outcome: its output, and the next state (null when the execution ends). */
    record Step(String next, JsonNode output) {}

    private final StateMachine machine;
    private final ExecutionEnvironment env;
    private final JsonNode input;
    private final Instant startDate;
    private final TaskRunner tasks;

    Execution(StateMachine machine, ExecutionEnvironment env, JsonNode input, Instant startDate) {
        this.machine = machine;
        this.env = env;
        this.input = input;
        this.startDate = startDate;
        this.tasks = new TaskRunner(env);
    }

    ExecutionResult run() {
        try {
            ObjectNode started = Json.object()
                    .put("roleArn", env.context().roleArn())
                    .put("stateMachineArn", ContextObject.ARN_PREFIX + "stateMachine:" + machine.name());
            started.set("input", input);
            env.history().add("ExecutionStarted", null, started);
            String current = machine.startAt();
            JsonNode data = input;
            while (true) {
                env.deadline().check();
                if (env.listener().abortOnEntering(current)) {
                    return close(
                            ExecutionStatus.ABORTED,
                            "ExecutionAborted",
                            null,
                            "Aborted before entering state '" + current + "'");
                }
                State state = machine.state(current);
                if (state instanceof State.Fail fail) {
                    return failState(fail, data);
                }
                Step step = enter(state, data);
                if (step.next() == null) {
                    ObjectNode details = Json.object();
                    details.set("output", step.output());
                    env.history().add("ExecutionSucceeded", null, details);
                    return result(ExecutionStatus.SUCCEEDED, step.output(), null, null);
                }
                current = step.next();
                data = step.output();
            }
        } catch (StatesError e) {
            return close(ExecutionStatus.FAILED, "ExecutionFailed", e.error(), e.cause());
        } catch (Deadline.Reached e) {
            return close(
                    ExecutionStatus.TIMED_OUT,
                    "ExecutionTimedOut",
                    ErrorNames.TIMEOUT,
                    "The execution ran longer than its TimeoutSeconds of " + machine.timeoutSeconds());
        }
    }

    private Step enter(State state, JsonNode raw) {
        env.transitions().incrementAndGet();
        Instant entered = env.clock().instant();
        long enteredId = env.history()
                .add(state.eventPrefix() + "StateEntered", state.name(), nameAnd(state, "input", raw))
                .id();
        try {
            return switch (state) {
                case State.Task task -> tasks.run(task, raw, entered);
                case State.Pass pass -> pass(pass, raw, entered);
                case State.Wait wait -> {
                    JsonNode effective = wait.inputPath().select(raw);
                    env.deadline().waitUntil(wait.time().until(env.clock().instant(), effective));
                    yield exit(
                            env,
                            wait,
                            wait.outputPath().select(effective),
                            wait.transition().next());
                }
                case State.Choice choice -> choice(choice, raw);
                case State.Succeed succeed ->
                    exit(
                            env,
                            succeed,
                            succeed.outputPath().select(succeed.inputPath().select(raw)),
                            null);
                case State.Fail fail -> throw new IllegalStateException("Fail states end the loop");
            };
        } catch (StatesError e) {
            throw e.terminal() ? located(e, state, enteredId) : e;
        }
    }

    private Step pass(State.Pass pass, JsonNode raw, Instant entered) {
        JsonNode effective = pass.inputPath().select(raw);
        if (pass.parameters() != null) {
            JsonNode context = env.context().forState(pass.name(), entered, 0);
            effective = pass.parameters().evaluate(new Scope(effective, context, env.uuids()));
        }
        JsonNode result = pass.result() != null ? pass.result().deepCopy() : effective;
        return exit(
                env,
                pass,
                pass.outputPath().select(pass.resultPath().apply(raw, result)),
                pass.transition().next());
    }

    private Step choice(State.Choice choice, JsonNode raw) {
        JsonNode effective = choice.inputPath().select(raw);
        String next = choice.choices().stream()
                .filter(branch -> branch.rule().test(effective))
                .map(ChoiceRule.Branch::next)
                .findFirst()
                .orElse(choice.defaultNext());
        if (next == null) {
            throw new StatesError(
                    ErrorNames.NO_CHOICE_MATCHED,
                    "No Choice Rule matched the input of state '" + choice.name() + "' and it has no Default: "
                            + Json.write(effective));
        }
        return exit(env, choice, choice.outputPath().select(effective), next);
    }

    private ExecutionResult failState(State.Fail fail, JsonNode raw) {
        env.transitions().incrementAndGet();
        Instant entered = env.clock().instant();
        long enteredId = env.history()
                .add("FailStateEntered", fail.name(), nameAnd(fail, "input", raw))
                .id();
        try {
            JsonNode context = env.context().forState(fail.name(), entered, 0);
            String error = fail.errorPath() == null ? fail.error() : failText(fail.errorPath(), raw, context);
            String cause = fail.causePath() == null ? fail.cause() : failText(fail.causePath(), raw, context);
            return close(ExecutionStatus.FAILED, "ExecutionFailed", error, cause);
        } catch (StatesError e) {
            throw located(e, fail, enteredId);
        }
    }

    private String failText(State.FailField field, JsonNode raw, JsonNode context) {
        JsonNode value = field.intrinsic() != null
                ? IntrinsicFunctions.evaluate(field.intrinsic(), new Scope(raw, context, env.uuids()))
                : field.path()
                        .read(raw, context)
                        .orElseThrow(() -> StatesError.runtime("Invalid path '"
                                + field.path().text() + "' : No results for path (" + field.field() + ")"));
        if (!value.isTextual()) {
            throw StatesError.runtime(
                    "The " + field.field() + " must resolve to a string, got " + Json.typeName(value));
        }
        return value.textValue();
    }

    /** Records the state's exit event and returns its step. */
    static Step exit(ExecutionEnvironment env, State state, JsonNode output, String next) {
        PayloadQuota.check(output, "state/task '" + state.name() + "' output");
        env.history().add(state.eventPrefix() + "StateExited", state.name(), nameAnd(state, "output", output));
        return new Step(next, output);
    }

    private static ObjectNode nameAnd(State state, String field, JsonNode value) {
        ObjectNode details = Json.object().put("name", state.name());
        details.set(field, value);
        return details;
    }

    private static StatesError located(StatesError e, State state, long enteredId) {
        return new StatesError(
                e.error(),
                "An error occurred while executing the state '" + state.name() + "' (entered at the event id #"
                        + enteredId + "). " + e.cause());
    }

    private ExecutionResult close(ExecutionStatus status, String eventType, String error, String cause) {
        ObjectNode details = Json.object();
        if (error != null) {
            details.put("error", error);
        }
        if (cause != null) {
            details.put("cause", cause);
        }
        env.history().add(eventType, null, details);
        return result(status, null, error, cause);
    }

    private ExecutionResult result(ExecutionStatus status, JsonNode output, String error, String cause) {
        return new ExecutionResult(
                env.executionName(),
                status,
                output,
                error,
                cause,
                env.history().events(),
                env.transitions().get(),
                startDate,
                env.clock().instant());
    }
}
