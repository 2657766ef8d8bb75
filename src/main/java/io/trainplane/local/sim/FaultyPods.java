package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.time.Instant;

/** Pod statuses of a workload in trouble (image, crash), as the kubelet writes them. */
final class FaultyPods {
    /** The exception the simulated training raises, as its traceback's last line. */
    static final String CRASH_EXCEPTION = "RuntimeError: simulated crash at start-up (--cluster-fault crash-loop)";

    /**
     * One attempt's failure in torchrun's log (shaped on one torchrun 2.13 wrote): the rank's
     * traceback, then the agent's line for the failed worker, which it writes before it restarts
     * the worker group (--max-restarts) or gives up.
     */
    static final String ATTEMPT =
            """
            Traceback (most recent call last):
              File "/workload/train.py", line 1, in <module>
            %s
            E1128 05:06:00.912000 1 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) \
            local_rank: 0 (pid: 41) of binary: /opt/conda/bin/python"""
                    .formatted(CRASH_EXCEPTION);

    /** What the agent writes when it gives up: its own traceback, raising ChildFailedError with its summary. */
    static final String GIVING_UP =
            """
            Traceback (most recent call last):
              File "/opt/conda/bin/torchrun", line 8, in <module>
                sys.exit(main())
              File "/opt/conda/lib/python3.11/site-packages/torch/distributed/run.py", line 1028, in main
                run(args)
              File "/opt/conda/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 383, in \
            launch_agent
                raise ChildFailedError(
            torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
            ============================================================
            /workload/train.py FAILED
            ------------------------------------------------------------
            Failures:
              <NO_OTHER_FAILURES>
            ------------------------------------------------------------
            Root Cause (first observed failure):
            [0]:
              rank      : 0 (local_rank: 0)
              exitcode  : 1 (pid: 41)
              error_file: <N/A>
              traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
            ============================================================""";

    /** A crash's log as torchrun leaves it after one attempt: the attempt's failure, then the agent giving up. */
    static final String CRASH = ATTEMPT + "\n" + GIVING_UP;

    /**
     * The log of a crash {@code attempts} times over (torchrun restarts the worker group after a
     * failure while --max-restarts allows), of which {@code failed} have failed so far; the agent
     * gives up after the last.
     */
    static String crash(int attempts, int failed) {
        StringBuilder log = new StringBuilder();
        for (int i = 0; i < Math.min(attempts, failed); i++) {
            log.append(ATTEMPT).append('\n');
        }
        if (failed >= attempts) {
            log.append(GIVING_UP).append('\n');
        }
        return log.toString();
    }

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
