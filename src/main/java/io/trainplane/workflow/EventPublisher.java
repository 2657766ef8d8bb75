package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Publishes one of a run's events from a step, as {@link Services#publish} does: an event
 * EventBridge would not take is noted in the run record and never fails the step.
 */
@FunctionalInterface
public interface EventPublisher {
    void publish(String step, String detailType, ObjectNode detail);
}
