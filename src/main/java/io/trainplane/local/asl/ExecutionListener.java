package io.trainplane.local.asl;

/**
 * Observes an execution as it goes: progress display, fault injection, controllers that must act
 * before each task. Called on the executing thread; all methods have empty defaults.
 */
public interface ExecutionListener {
    ExecutionListener NONE = new ExecutionListener() {};

    /** Each history event, as it is recorded. */
    default void onEvent(HistoryEvent event) {}

    /**
     * Before each invocation attempt of a Task. {@code attempt} is 0 for the first invocation and
     * then counts the retries, like {@code $$.State.RetryCount}.
     */
    default void beforeTask(String stateName, int attempt) {}

    /**
     * Asked before each state is entered. True stops the execution as StopExecution does: status
     * ABORTED, an ExecutionAborted event, and no Catch runs.
     */
    default boolean abortOnEntering(String stateName) {
        return false;
    }
}
