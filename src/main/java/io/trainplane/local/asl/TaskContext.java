package io.trainplane.local.asl;

import java.time.Instant;

/**
 * What a task invocation knows about where it runs.
 *
 * @param retryCount 0 for the first attempt, then the number of retries so far ($$.State.RetryCount)
 * @param enteredTime when the Task state was entered ($$.State.EnteredTime)
 */
public record TaskContext(String executionName, String stateName, int retryCount, Instant enteredTime) {}
