package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Parses one state of a definition, refusing any field its type does not support here. */
final class StateParser {
    private static final Set<String> COMMON = Set.of("Type", "Comment", "QueryLanguage");
    private static final Set<String> FLOW = Set.of("Next", "End");
    private static final Set<String> IO = Set.of("InputPath", "OutputPath");
    private static final long MAX_SECONDS = 99_999_999L;

    private StateParser() {}

    static State parse(String name, JsonNode json) {
        if (name.isEmpty() || name.length() > 80) {
            throw new AslException(name, null, "a state name must have 1 to 80 characters");
        }
        FieldReader state = new FieldReader(json, name, "");
        String type = state.requiredString("Type");
        String language = state.string("QueryLanguage");
        if (language != null && !language.equals("JSONPath")) {
            throw state.error("QueryLanguage", "only JSONPath is supported by the local executor");
        }
        state.string("Comment");
        return switch (type) {
            case "Task" -> task(state);
            case "Pass" -> pass(state);
            case "Choice" -> choice(state);
            case "Wait" -> waitState(state);
            case "Succeed" -> succeed(state);
            case "Fail" -> fail(state);
            case "Map", "Parallel" ->
                throw state.error("Type", type + " states are not supported by the local executor");
            default -> throw state.error("Type", "unknown state type '" + type + "'");
        };
    }

    private static Set<String> fields(List<Set<String>> groups, String... own) {
        Set<String> all = new HashSet<>(COMMON);
        groups.forEach(all::addAll);
        all.addAll(List.of(own));
        return all;
    }

    private static State task(FieldReader s) {
        s.allowOnly(
                fields(
                        List.of(FLOW, IO),
                        "Resource",
                        "Parameters",
                        "ResultSelector",
                        "ResultPath",
                        "Retry",
                        "Catch",
                        "TimeoutSeconds"),
                "a Task state");
        String resource = s.requiredString("Resource");
        if (resource.isBlank()) {
            throw s.error("Resource", "must not be empty");
        }
        return new State.Task(
                s.stateName(),
                resource,
                s.inputOutputPath("InputPath"),
                s.template("Parameters"),
                s.template("ResultSelector"),
                s.resultPath("ResultPath"),
                s.inputOutputPath("OutputPath"),
                ErrorHandlingParser.retry(s),
                ErrorHandlingParser.catchers(s),
                s.integer("TimeoutSeconds", 1, MAX_SECONDS),
                transition(s));
    }

    private static State pass(FieldReader s) {
        s.allowOnly(fields(List.of(FLOW, IO), "Result", "Parameters", "ResultPath"), "a Pass state");
        return new State.Pass(
                s.stateName(),
                s.inputOutputPath("InputPath"),
                s.template("Parameters"),
                s.get("Result"),
                s.resultPath("ResultPath"),
                s.inputOutputPath("OutputPath"),
                transition(s));
    }

    private static State choice(FieldReader s) {
        s.allowOnly(fields(List.of(IO), "Choices", "Default"), "a Choice state");
        return new State.Choice(
                s.stateName(),
                s.inputOutputPath("InputPath"),
                ChoiceParser.choices(s),
                s.string("Default"),
                s.inputOutputPath("OutputPath"));
    }

    private static State waitState(FieldReader s) {
        List<String> kinds = List.of("Seconds", "SecondsPath", "Timestamp", "TimestampPath");
        s.allowOnly(fields(List.of(FLOW, IO), kinds.toArray(String[]::new)), "a Wait state");
        List<String> given = kinds.stream().filter(s::has).toList();
        if (given.size() != 1) {
            throw s.error(
                    given.isEmpty() ? null : given.get(1),
                    "a Wait state needs exactly one of Seconds, SecondsPath, Timestamp, TimestampPath");
        }
        WaitTime time =
                switch (given.get(0)) {
                    case "Seconds" -> new WaitTime.Seconds(s.integer("Seconds", 0, MAX_SECONDS));
                    case "SecondsPath" -> new WaitTime.SecondsPath(s.path("SecondsPath", false));
                    case "TimestampPath" -> new WaitTime.TimestampPath(s.path("TimestampPath", false));
                    default -> {
                        try {
                            yield new WaitTime.Timestamp(WaitTime.parseTimestamp(s.requiredString("Timestamp")));
                        } catch (IllegalArgumentException e) {
                            throw s.error("Timestamp", e.getMessage());
                        }
                    }
                };
        return new State.Wait(
                s.stateName(), s.inputOutputPath("InputPath"), time, s.inputOutputPath("OutputPath"), transition(s));
    }

    private static State succeed(FieldReader s) {
        s.allowOnly(fields(List.of(IO)), "a Succeed state");
        return new State.Succeed(s.stateName(), s.inputOutputPath("InputPath"), s.inputOutputPath("OutputPath"));
    }

    private static State fail(FieldReader s) {
        s.allowOnly(fields(List.of(), "Error", "Cause", "ErrorPath", "CausePath"), "a Fail state");
        exclusive(s, "Error", "ErrorPath");
        exclusive(s, "Cause", "CausePath");
        return new State.Fail(
                s.stateName(),
                s.string("Error"),
                s.string("Cause"),
                failField(s, "ErrorPath"),
                failField(s, "CausePath"));
    }

    private static void exclusive(FieldReader s, String literal, String path) {
        if (s.has(literal) && s.has(path)) {
            throw s.error(path, "cannot be used together with " + literal);
        }
    }

    private static State.FailField failField(FieldReader s, String field) {
        String text = s.string(field);
        if (text == null) {
            return null;
        }
        try {
            if (IntrinsicParser.looksLikeIntrinsic(text)) {
                return new State.FailField(field, null, IntrinsicParser.parse(text));
            }
            return new State.FailField(field, JsonPathExpr.parse(text, true), null);
        } catch (IllegalArgumentException e) {
            throw s.error(field, e.getMessage());
        }
    }

    private static Transition transition(FieldReader s) {
        if (s.has("End")) {
            if (!s.bool("End")) {
                throw s.error("End", "must be true when present");
            }
            if (s.has("Next")) {
                throw s.error("Next", "a state cannot have both Next and End");
            }
            return Transition.END;
        }
        if (!s.has("Next")) {
            throw s.error(null, "a non-terminal state needs Next or End");
        }
        return new Transition(s.requiredString("Next"));
    }
}
