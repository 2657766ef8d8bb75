package io.trainplane.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A state machine as {@link Pipeline} declares it (through {@link StateMachineBuilder}), and its
 * Amazon States Language: the states in the order its file lists them, the first one where it
 * starts. Only the part of the language Trainplane's machines use: Lambda Tasks with Parameters,
 * ResultPath, TimeoutSeconds, Retry and one catch-all Catch; AWS SDK calls that Step Functions
 * makes itself, with a Catch of named errors; Choice rules on one variable; Wait by
 * seconds or by a path; Succeed; Fail. A transition to a state that does not exist, or a state no
 * transition reaches, is refused here, before a file is written.
 *
 * @param file the definition's file under statemachines/ (template.yaml's DefinitionUri)
 */
public record StateMachineDefinition(String name, String file, String comment, Duration timeout, List<State> states) {

    public sealed interface State permits Task, ServiceCall, Choice, Wait, Succeed, Fail {
        String name();

        /** The states this one goes to, Catch included (null where one is missing). */
        List<String> transitions();

        ObjectNode asl();
    }

    /**
     * A Lambda invocation: Resource {@code ${<function>FunctionArn}}, the key template.yaml's
     * DefinitionSubstitutions give the function's alias. {@code onFailure} may be null (no Catch).
     */
    public record Task(
            String name,
            LambdaFunction function,
            String comment,
            Map<String, Object> parameters,
            String resultPath,
            Duration timeout,
            List<Retrier> retry,
            Catch onFailure,
            String next)
            implements State {
        public String resource() {
            return "${" + function.name() + "FunctionArn}";
        }

        @Override
        public List<String> transitions() {
            return onFailure == null ? Arrays.asList(next) : Arrays.asList(next, onFailure.next());
        }

        @Override
        public ObjectNode asl() {
            ObjectNode task = taskHead(comment, resource(), parameters);
            taskTail(task, resultPath, timeout, retry);
            if (onFailure != null) {
                task.putArray("Catch").add(onFailure.asl(name));
            }
            return task.put("Next", next);
        }
    }

    /**
     * An AWS SDK call Step Functions makes itself, no function in between: Resource {@code
     * arn:aws:states:::aws-sdk:<service>:<action>}, PascalCase Parameters and result, errors named
     * {@code <Service>.<Exception>}
     * (https://docs.aws.amazon.com/step-functions/latest/dg/supported-services-awssdk.html). The
     * errors in {@code caught} go to {@code onCaught}, their output discarded; any other fails the
     * state, and with it the execution.
     */
    public record ServiceCall(
            String name,
            String comment,
            String service,
            String action,
            Map<String, Object> parameters,
            Map<String, Object> resultSelector,
            String resultPath,
            Duration timeout,
            List<Retrier> retry,
            List<String> caught,
            String onCaught,
            String next)
            implements State {
        public String resource() {
            return "arn:aws:states:::aws-sdk:" + service + ":" + action;
        }

        @Override
        public List<String> transitions() {
            return Arrays.asList(next, onCaught);
        }

        @Override
        public ObjectNode asl() {
            ObjectNode task = taskHead(comment, resource(), parameters);
            ObjectNode selector = task.putObject("ResultSelector");
            resultSelector.forEach((key, value) -> selector.set(key, value(value)));
            taskTail(task, resultPath, timeout, retry);
            ObjectNode caughtErrors = task.putArray("Catch").addObject();
            caught.forEach(caughtErrors.putArray("ErrorEquals")::add);
            caughtErrors.putNull("ResultPath");
            caughtErrors.put("Next", onCaught);
            return task.put("Next", next);
        }
    }

    /** A Task's Type, Comment, Resource and Parameters, in the order its file lists them. */
    private static ObjectNode taskHead(String comment, String resource, Map<String, Object> parameters) {
        ObjectNode task = Json.object().put("Type", "Task");
        optional(task, "Comment", comment);
        task.put("Resource", resource);
        ObjectNode params = task.putObject("Parameters");
        parameters.forEach((key, value) -> params.set(key, value(value)));
        return task;
    }

    /** A Task's ResultPath, TimeoutSeconds and Retry. */
    private static void taskTail(ObjectNode task, String resultPath, Duration timeout, List<Retrier> retry) {
        task.put("ResultPath", resultPath).put("TimeoutSeconds", timeout.toSeconds());
        ArrayNode retriers = task.putArray("Retry");
        retry.forEach(r -> retriers.add(r.asl()));
    }

    /** The first rule that holds gives the next state; none, {@code otherwise}. */
    public record Choice(String name, List<Rule> rules, String otherwise) implements State {
        @Override
        public List<String> transitions() {
            return Stream.concat(rules.stream().map(Rule::next), Stream.of(otherwise))
                    .toList();
        }

        @Override
        public ObjectNode asl() {
            ObjectNode choice = Json.object().put("Type", "Choice");
            ArrayNode choices = choice.putArray("Choices");
            for (Rule rule : rules) {
                ObjectNode when = choices.addObject().put("Variable", rule.variable());
                when.set(rule.test(), value(rule.value()));
                when.put("Next", rule.next());
            }
            return choice.put("Default", otherwise);
        }
    }

    /** {@code variable} compared by ASL's {@code test} operator (BooleanEquals, StringEquals, IsPresent) with {@code value}. */
    public record Rule(String variable, String test, Object value, String next) {}

    /** Waits {@code seconds}, or as many as the state holds at {@code secondsPath} (one of the two). */
    public record Wait(String name, Integer seconds, String secondsPath, String next) implements State {
        @Override
        public List<String> transitions() {
            return Arrays.asList(next);
        }

        @Override
        public ObjectNode asl() {
            ObjectNode wait = Json.object().put("Type", "Wait");
            if (seconds != null) {
                wait.put("Seconds", seconds);
            } else {
                wait.put("SecondsPath", secondsPath);
            }
            return wait.put("Next", next);
        }
    }

    public record Succeed(String name) implements State {
        @Override
        public List<String> transitions() {
            return List.of();
        }

        @Override
        public ObjectNode asl() {
            return Json.object().put("Type", "Succeed");
        }
    }

    /** Fails with a fixed error and cause, or with those the state holds at the two paths. */
    public record Fail(String name, String error, String cause, String errorPath, String causePath) implements State {
        @Override
        public List<String> transitions() {
            return List.of();
        }

        @Override
        public ObjectNode asl() {
            ObjectNode fail = Json.object().put("Type", "Fail");
            optional(fail, "Error", error);
            optional(fail, "Cause", cause);
            optional(fail, "ErrorPath", errorPath);
            optional(fail, "CausePath", causePath);
            return fail;
        }
    }

    /** One retrier of a Task, full jitter on the backoff. */
    public record Retrier(
            List<String> errors, int intervalSeconds, int maxAttempts, int backoffRate, int maxDelaySeconds) {
        ObjectNode asl() {
            ObjectNode retrier = Json.object();
            errors.forEach(retrier.putArray("ErrorEquals")::add);
            return retrier.put("IntervalSeconds", intervalSeconds)
                    .put("MaxAttempts", maxAttempts)
                    .put("BackoffRate", backoffRate)
                    .put("MaxDelaySeconds", maxDelaySeconds)
                    .put("JitterStrategy", "FULL");
        }
    }

    /**
     * Where a Task's error goes once its retriers gave up (States.ALL): into {@code resultPath},
     * under the failed state's name when {@code keyedByState}, then on to {@code next}.
     */
    public record Catch(String resultPath, boolean keyedByState, String next) {
        /** Into {@code <parent>.<State>}: every state that fails keeps its own error. */
        public static Catch keyed(String parent, String next) {
            return new Catch(parent, true, next);
        }

        public static Catch at(String resultPath, String next) {
            return new Catch(resultPath, false, next);
        }

        ObjectNode asl(String state) {
            ObjectNode caught = Json.object();
            caught.putArray("ErrorEquals").add("States.ALL");
            return caught.put("ResultPath", keyedByState ? resultPath + "." + state : resultPath)
                    .put("Next", next);
        }
    }

    public StateMachineDefinition {
        states = List.copyOf(states);
        Map<String, State> byName = new LinkedHashMap<>();
        for (State state : states) {
            if (byName.put(state.name(), state) != null) {
                throw new IllegalArgumentException(name + ": two states named " + state.name());
            }
        }
        for (State state : states) {
            for (String next : state.transitions()) {
                if (!byName.containsKey(Objects.requireNonNull(next, name + ": " + state.name() + " has no Next"))) {
                    throw new IllegalArgumentException(
                            name + ": " + state.name() + " goes to " + next + ", no state of it");
                }
            }
        }
        Set<String> reached = new TreeSet<>();
        Deque<String> toVisit = new ArrayDeque<>(List.of(states.get(0).name()));
        while (!toVisit.isEmpty()) {
            String state = toVisit.pop();
            if (reached.add(state)) {
                toVisit.addAll(byName.get(state).transitions());
            }
        }
        if (reached.size() != byName.size()) {
            Set<String> unreached = new TreeSet<>(byName.keySet());
            unreached.removeAll(reached);
            throw new IllegalArgumentException(name + ": no transition reaches " + unreached);
        }
    }

    public String startAt() {
        return states.get(0).name();
    }

    /** The functions its Tasks invoke, each once, in the order they first appear. */
    public List<LambdaFunction> functions() {
        return states.stream()
                .flatMap(s -> s instanceof Task task ? Stream.of(task.function()) : Stream.empty())
                .distinct()
                .toList();
    }

    /** The definition as its file holds it: two-space indents, one value a line, a newline at the end. */
    public String asl() {
        ObjectNode machine = Json.object();
        optional(machine, "Comment", comment);
        machine.put("StartAt", startAt()).put("TimeoutSeconds", timeout.toSeconds());
        ObjectNode byName = machine.putObject("States");
        states.forEach(state -> byName.set(state.name(), state.asl()));
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withSeparators(
                        Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER));
        printer.indentObjectsWith(indenter);
        printer.indentArraysWith(indenter);
        try {
            return Json.mapper().writer(printer).writeValueAsString(machine) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void optional(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    private static JsonNode value(Object value) {
        return switch (value) {
            case String text -> Json.NODES.textNode(text);
            case Boolean bool -> Json.NODES.booleanNode(bool);
            case Integer number -> Json.NODES.numberNode(number);
            default -> throw new IllegalArgumentException("not an ASL value: " + value);
        };
    }
}
