package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One task of the state machine: reads its input, starts work or looks once, and returns what
 * goes into the execution's state at the task's ResultPath. Never sleeps waiting for the cloud.
 * What SnapStart primes for it is declared with its function ({@link Pipeline}, {@link Priming}).
 */
@FunctionalInterface
public interface Step {
    JsonNode run(JsonNode input);
}
