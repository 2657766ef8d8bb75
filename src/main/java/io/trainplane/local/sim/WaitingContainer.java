package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;

/** A container that has not started, as the kubelet reports it: waiting, with why (and what it said). */
final class WaitingContainer {
    private WaitingContainer() {}

    /** {@code message} may be null: ContainerCreating and PodInitializing carry none. */
    static ContainerStatus of(Container c, String reason, String message) {
        return new ContainerStatusBuilder()
                .withName(c.getName())
                .withImage(c.getImage())
                .withReady(false)
                .withRestartCount(0)
                .withNewState()
                .withNewWaiting()
                .withReason(reason)
                .withMessage(message)
                .endWaiting()
                .endState()
                .build();
    }
}
