package io.trainplane.local.asl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A loaded, validated state machine definition (Amazon States Language, JSONPath). Loading is
 * strict: any field, state type, comparison operator, intrinsic function or JSONPath form the
 * executor does not implement is an {@link AslException} naming the state and the field, never
 * ignored. Also checked: StartAt and every Next, Default and Catch Next name existing states, every
 * state is reachable, each non-terminal state has Next or End, Retry and Catch types and ranges.
 */
public final class StateMachine {
    public static final String DEFAULT_NAME = "TrainingPipeline";
    private static final Set<String> TOP_LEVEL =
            Set.of("Comment", "StartAt", "States", "TimeoutSeconds", "QueryLanguage", "Version");

    private final String name;
    private final String startAt;
    private final Integer timeoutSeconds;
    private final Map<String, State> states;

    private StateMachine(String name, String startAt, Integer timeoutSeconds, Map<String, State> states) {
        this.name = name;
        this.startAt = startAt;
        this.timeoutSeconds = timeoutSeconds;
        this.states = Collections.unmodifiableMap(states);
    }

    /** Loads a definition for the state machine named {@value #DEFAULT_NAME}. */
    public static StateMachine parse(String definitionJson, Map<String, String> substitutions) {
        return parse(definitionJson, substitutions, DEFAULT_NAME);
    }

    /**
     * Loads a definition. {@code ${Name}} placeholders are first replaced from {@code substitutions},
     * as SAM's DefinitionSubstitutions does; a placeholder left unresolved is an error.
     *
     * @param machineName the state machine's name, used in $$.StateMachine and execution ARNs
     * @throws AslException when the definition is invalid or uses what the executor does not implement
     */
    public static StateMachine parse(String definitionJson, Map<String, String> substitutions, String machineName) {
        Objects.requireNonNull(machineName, "machineName");
        String text = Placeholders.substitute(definitionJson, substitutions);
        JsonNode root;
        try {
            root = Json.strictMapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new AslException(null, null, "not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode()) {
            throw new AslException(null, null, "empty definition");
        }
        FieldReader top = new FieldReader(root, null, "");
        top.allowOnly(TOP_LEVEL, "the top level");
        top.string("Comment");
        String version = top.string("Version");
        if (version != null && !version.equals("1.0")) {
            throw top.error("Version", "only version 1.0 exists");
        }
        String language = top.string("QueryLanguage");
        if (language != null && !language.equals("JSONPath")) {
            throw top.error("QueryLanguage", "only JSONPath is supported by the local executor");
        }
        String startAt = top.requiredString("StartAt");
        Integer timeout = top.integer("TimeoutSeconds", 1, 99_999_999L);
        JsonNode statesJson = top.get("States");
        if (statesJson == null || !statesJson.isObject() || statesJson.isEmpty()) {
            throw top.error("States", "must be a non-empty object of states");
        }
        Map<String, State> states = new LinkedHashMap<>();
        for (var entry : statesJson.properties()) {
            states.put(entry.getKey(), StateParser.parse(entry.getKey(), entry.getValue()));
        }
        validateGraph(startAt, states);
        return new StateMachine(machineName, startAt, timeout, states);
    }

    private static void validateGraph(String startAt, Map<String, State> states) {
        if (!states.containsKey(startAt)) {
            throw new AslException(null, "StartAt", "names no state: '" + startAt + "'");
        }
        boolean terminal = false;
        for (State state : states.values()) {
            for (Map.Entry<String, String> edge : successors(state).entrySet()) {
                if (!states.containsKey(edge.getValue())) {
                    throw new AslException(state.name(), edge.getKey(), "names no state: '" + edge.getValue() + "'");
                }
            }
            terminal |= state instanceof State.Succeed
                    || state instanceof State.Fail
                    || (state instanceof State.Task t && t.transition().isEnd())
                    || (state instanceof State.Pass p && p.transition().isEnd())
                    || (state instanceof State.Wait w && w.transition().isEnd());
        }
        if (!terminal) {
            throw new AslException(null, "States", "no state ends the execution (End, Succeed or Fail)");
        }
        Set<String> reached = new LinkedHashSet<>();
        Deque<String> queue = new ArrayDeque<>(List.of(startAt));
        while (!queue.isEmpty()) {
            String next = queue.removeFirst();
            if (reached.add(next)) {
                queue.addAll(successors(states.get(next)).values());
            }
        }
        for (String state : states.keySet()) {
            if (!reached.contains(state)) {
                throw new AslException(state, null, "state is not reachable from StartAt");
            }
        }
    }

    /** The states a state can lead to, keyed by the field that names each. */
    private static Map<String, String> successors(State state) {
        Map<String, String> out = new LinkedHashMap<>();
        switch (state) {
            case State.Task t -> {
                addNext(out, t.transition());
                for (int i = 0; i < t.catchers().size(); i++) {
                    out.put("Catch[" + i + "].Next", t.catchers().get(i).next());
                }
            }
            case State.Pass p -> addNext(out, p.transition());
            case State.Wait w -> addNext(out, w.transition());
            case State.Choice c -> {
                for (int i = 0; i < c.choices().size(); i++) {
                    out.put("Choices[" + i + "].Next", c.choices().get(i).next());
                }
                if (c.defaultNext() != null) {
                    out.put("Default", c.defaultNext());
                }
            }
            case State.Succeed s -> {}
            case State.Fail f -> {}
        }
        return out;
    }

    private static void addNext(Map<String, String> out, Transition transition) {
        if (!transition.isEnd()) {
            out.put("Next", transition.next());
        }
    }

    /** The state machine's name, as in its ARN. */
    public String name() {
        return name;
    }

    public String startAt() {
        return startAt;
    }

    /** The names of all states, in definition order. */
    public Set<String> stateNames() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(states.keySet()));
    }

    /** The Resource of every Task state, in definition order, without duplicates. */
    public Set<String> taskResources() {
        Set<String> resources = new LinkedHashSet<>();
        states.values().forEach(s -> {
            if (s instanceof State.Task task) {
                resources.add(task.resource());
            }
        });
        return Collections.unmodifiableSet(resources);
    }

    /** The execution timeout (top-level TimeoutSeconds), or null when there is none. */
    public Integer timeoutSeconds() {
        return timeoutSeconds;
    }

    State state(String stateName) {
        State state = states.get(stateName);
        if (state == null) {
            throw new IllegalStateException("no state " + stateName);
        }
        return state;
    }
}
