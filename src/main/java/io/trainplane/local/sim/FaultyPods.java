package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.time.Instant;

/** Pod statuses of a workload in trouble (image, crash), as the kubelet writes them. */
final class FaultyPods {
    static final String CRASH =
            "Traceback (most recent call last):\n  File \"/workload/train.py\", line 1, in <module>\n"
                    + "RuntimeError: simulated crash at start-up (--cluster-fault crash-loop)";
    static final int RESTARTS = 3;

    private FaultyPods() {}

    static PodStatus imagePullBackOff(Pod pod, Instant created) {
        Container c = pod.getSpec().getContainers().get(0);
        return new PodStatusBuilder()
                .withPhase("Pending")
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("True")
                .withLastTransitionTime(created.toString())
                .endCondition()
                .withContainerStatuses(
                        WaitingContainer.of(c, "ImagePullBackOff", "Back-off pulling image \"" + c.getImage() + "\""))
                .build();
    }

    static PodStatus crashLoopBackOff(Pod pod, Instant created) {
        Container c = pod.getSpec().getContainers().get(0);
        return new PodStatusBuilder()
                .withPhase("Running")
                .withStartTime(created.toString())
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("True")
                .withLastTransitionTime(created.toString())
                .endCondition()
                .withContainerStatuses(new ContainerStatusBuilder()
                        .withName(c.getName())
                        .withImage(c.getImage())
                        .withReady(false)
                        .withRestartCount(RESTARTS)
                        .withNewState()
                        .withNewWaiting()
                        .withReason("CrashLoopBackOff")
                        .withMessage("back-off 40s restarting failed container=" + c.getName())
                        .endWaiting()
                        .endState()
                        .withNewLastState()
                        .withNewTerminated()
                        .withExitCode(1)
                        .withReason("Error")
                        .withMessage(CRASH)
                        .endTerminated()
                        .endLastState()
                        .build())
                .build();
    }
}
