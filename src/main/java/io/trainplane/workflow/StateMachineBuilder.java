package io.trainplane.workflow;

import io.trainplane.workflow.StateMachineDefinition.Catch;
import io.trainplane.workflow.StateMachineDefinition.Choice;
import io.trainplane.workflow.StateMachineDefinition.Fail;
import io.trainplane.workflow.StateMachineDefinition.Retrier;
import io.trainplane.workflow.StateMachineDefinition.Rule;
import io.trainplane.workflow.StateMachineDefinition.State;
import io.trainplane.workflow.StateMachineDefinition.Succeed;
import io.trainplane.workflow.StateMachineDefinition.Task;
import io.trainplane.workflow.StateMachineDefinition.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Declares a state machine one statement per state, in the order its file lists them: a Task gets
 * the machine's defaults (parameters, retriers, timeout, Catch) unless it says otherwise, and a
 * poll loop (look once, then done or wait and look again) is one statement.
 */
public final class StateMachineBuilder {
    /** The parameter every Task passes its function: the state's name ($$.State.Name). */
    public static final String STATE_NAME = "stateName.$";
    /** The parameter every Task passes its function: when the state was entered ($$.State.EnteredTime). */
    public static final String STATE_ENTERED = "stateEntered.$";

    private final String name;
    private final String file;
    private final Duration timeout;
    private final String comment;
    /** Resolved at {@link #build()}: a Task's builder takes settings until then. */
    private final List<Supplier<State>> states = new ArrayList<>();

    private Map<String, Object> parameters = Map.of();
    private List<Retrier> retry = List.of();
    private Duration taskTimeout = Duration.ZERO;
    private Catch onFailure;

    public StateMachineBuilder(String name, String file, Duration timeout, String comment) {
        this.name = name;
        this.file = file;
        this.timeout = timeout;
        this.comment = comment;
    }

    /** Keys and values in turn, kept in that order (ASL values: text, booleans, numbers). */
    public static Map<String, Object> parameters(Object... keysAndValues) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            parameters.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(parameters);
    }

    /** What every Task declared after this gets unless it says otherwise ({@code onFailure} may be null: no Catch). */
    public StateMachineBuilder taskDefaults(
            Map<String, Object> parameters, List<Retrier> retry, Duration timeout, Catch onFailure) {
        this.parameters = parameters;
        this.retry = retry;
        this.taskTimeout = timeout;
        this.onFailure = onFailure;
        return this;
    }

    public TaskBuilder task(String state, LambdaFunction function) {
        TaskBuilder task = new TaskBuilder(state, function);
        states.add(task::build);
        return task;
    }

    /**
     * An AWS SDK call of Step Functions' own ({@link StateMachineDefinition.ServiceCall}): the
     * machine's Task timeout, its own retriers (the machine's are for functions' errors).
     */
    public void serviceCall(
            String state,
            String comment,
            String service,
            String action,
            Map<String, Object> parameters,
            Map<String, Object> resultSelector,
            String resultPath,
            List<Retrier> retriers,
            List<String> caught,
            String onCaught,
            String next) {
        Duration timeout = taskTimeout;
        states.add(() -> new StateMachineDefinition.ServiceCall(
                state,
                comment,
                service,
                action,
                parameters,
                resultSelector,
                resultPath,
                timeout,
                retriers,
                caught,
                onCaught,
                next));
    }

    public ChoiceBuilder choice(String state) {
        ChoiceBuilder choice = new ChoiceBuilder(state);
        states.add(choice::build);
        return choice;
    }

    public void waitSeconds(String state, int seconds, String next) {
        states.add(() -> new Wait(state, seconds, null, next));
    }

    public void succeed(String state) {
        states.add(() -> new Succeed(state));
    }

    public void fail(String state, String error, String cause) {
        states.add(() -> new Fail(state, error, cause, null, null));
    }

    /** Fails with the error and cause the execution's state holds at these paths. */
    public void failWith(String state, String errorPath, String causePath) {
        states.add(() -> new Fail(state, null, null, errorPath, causePath));
    }

    public StateMachineDefinition build() {
        return new StateMachineDefinition(
                name, file, comment, timeout, states.stream().map(Supplier::get).toList());
    }

    public final class TaskBuilder {
        private final String state;
        private final LambdaFunction function;
        private String comment;
        private Map<String, Object> taskParameters = parameters;
        private final List<Retrier> retriers = retry;
        private final Duration timeout = taskTimeout;
        private String resultPath;
        private Catch caught = onFailure;
        private String next;

        private TaskBuilder(String state, LambdaFunction function) {
            this.state = state;
            this.function = function;
        }

        public TaskBuilder comment(String comment) {
            this.comment = comment;
            return this;
        }

        /** These parameters instead of the machine's. */
        public TaskBuilder parameters(Object... keysAndValues) {
            taskParameters = StateMachineBuilder.parameters(keysAndValues);
            return this;
        }

        /** The machine's parameters and these. */
        public TaskBuilder moreParameters(Object... keysAndValues) {
            Map<String, Object> all = new LinkedHashMap<>(taskParameters);
            all.putAll(StateMachineBuilder.parameters(keysAndValues));
            taskParameters = Collections.unmodifiableMap(all);
            return this;
        }

        public TaskBuilder resultPath(String resultPath) {
            this.resultPath = resultPath;
            return this;
        }

        public TaskBuilder catching(Catch caught) {
            this.caught = caught;
            return this;
        }

        public void next(String next) {
            this.next = next;
        }

        /**
         * A poll loop: this Task looks once and answers {@code {done, waitSeconds}} at its
         * ResultPath; Choice {@code doneChoice} goes on when done, else Wait {@code wait} waits the
         * seconds the answer says and the Task looks again.
         */
        public PollBuilder poll(String doneChoice, String wait) {
            return poll(doneChoice, () -> new Wait(wait, null, resultPath + ".waitSeconds", state), wait);
        }

        /** A poll loop whose Wait always waits {@code seconds}. */
        public PollBuilder poll(String doneChoice, String wait, int seconds) {
            return poll(doneChoice, () -> new Wait(wait, seconds, null, state), wait);
        }

        private PollBuilder poll(String doneChoice, Supplier<State> waitState, String wait) {
            next = doneChoice;
            PollBuilder poll = new PollBuilder();
            states.add(() -> new Choice(
                    doneChoice, List.of(new Rule(resultPath + ".done", "BooleanEquals", true, poll.then)), wait));
            states.add(waitState);
            return poll;
        }

        private Task build() {
            // Every Task tells its function which state runs it and when the state was entered, so
            // the run's timeline is the state machine's own (StepHandler), not the Lambda's run time.
            Map<String, Object> withTimeline = new LinkedHashMap<>(taskParameters);
            withTimeline.put(STATE_NAME, "$$.State.Name");
            withTimeline.put(STATE_ENTERED, "$$.State.EnteredTime");
            return new Task(
                    state,
                    function,
                    comment,
                    Collections.unmodifiableMap(withTimeline),
                    resultPath,
                    timeout,
                    retriers,
                    caught,
                    next);
        }
    }

    public static final class PollBuilder {
        private String then;

        /** Where the loop goes when the Task answers done. */
        public void then(String next) {
            this.then = next;
        }
    }

    public final class ChoiceBuilder {
        private final String state;
        private final List<Rule> rules = new ArrayList<>();
        private String otherwise;

        private ChoiceBuilder(String state) {
            this.state = state;
        }

        public ChoiceBuilder whenEquals(String variable, String text, String next) {
            rules.add(new Rule(variable, "StringEquals", text, next));
            return this;
        }

        public ChoiceBuilder whenTrue(String variable, String next) {
            rules.add(new Rule(variable, "BooleanEquals", true, next));
            return this;
        }

        public ChoiceBuilder whenPresent(String variable, String next) {
            rules.add(new Rule(variable, "IsPresent", true, next));
            return this;
        }

        public void otherwise(String next) {
            this.otherwise = next;
        }

        private Choice build() {
            return new Choice(state, List.copyOf(rules), otherwise);
        }
    }
}
