package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.TrainingSuspension;
import io.trainplane.runs.RunCost;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import java.util.Locale;
import java.util.Optional;

/**
 * Holds a training to its run's {@code budgetUsd} (StartRun put the stack's DefaultRunBudgetUsd
 * there when the spec had none). At each look of CheckTraining the run's cost so far ({@link
 * ActualCost}, as the run's end prices it) is set against the budget; once it is reached the record
 * says so ({@link RunResources#BUDGET_REACHED}) and the training is suspended ({@link
 * TrainingSuspension}: SIGTERM, a checkpoint, exit), and the looks that follow wait for its pods
 * to stop, then answer done with {@code budgetReached}: the pipeline skips the evaluation and copies
 * the outputs. The cost is read at each look, and the next look comes no later than the budget
 * would be reached at the run's rate so far: a run passes its budget by at most one short look's
 * worth ({@link #STOPPING_WAIT_SECONDS}), or a rate that rose since (a warm node group scaled out).
 */
final class TrainingBudget {
    /** The result field the pipeline's TrainingOutcome choice reads. */
    static final String BUDGET_REACHED = "budgetReached";
    /** How often a stopping training is looked at: its pods have their grace period to checkpoint. */
    static final int STOPPING_WAIT_SECONDS = 15;

    private final RunStore store;
    private final RunCostRecorder costs;

    TrainingBudget(RunStore store, RunCostRecorder costs) {
        this.store = store;
        this.costs = costs;
    }

    /** Why the run's training is being stopped, when its budget was reached at an earlier look. */
    Optional<String> reached(RunContext run) {
        return store.get(run.runId()).resources().get(RunResources.BUDGET_REACHED);
    }

    /**
     * The look at a training being stopped: suspended again (a look that died after recording the
     * budget may not have got there), done once none of its pods runs.
     */
    ObjectNode stopping(RunContext run, RunObjects objects) {
        String jobName = run.names().trainingJob();
        TrainingSuspension.suspend(objects, run.spec().training().launcher(), jobName);
        JobPods pods = TrainingSuspension.pods(objects, run.spec().training().launcher(), jobName);
        ObjectNode result = TrainingSuspension.stopped(pods.list())
                ? JobPolling.done()
                : Json.object().put("done", false).put("waitSeconds", STOPPING_WAIT_SECONDS);
        return result.put(BUDGET_REACHED, true);
    }

    /**
     * After a look that found the training going on ({@code result}): when the run's cost has
     * reached its budget, records why and suspends the training, and looks again soon.
     */
    void hold(RunContext run, RunObjects objects, ObjectNode result) {
        Double budget = run.spec().budgetUsd();
        if (budget == null) {
            return;
        }
        RunRecord record = store.get(run.runId());
        Optional<RunCost> cost = costs.soFar(record);
        if (cost.isEmpty()) {
            return;
        }
        if (cost.get().total() < budget) {
            // The next look no later than the budget would be reached at the run's average rate so far
            // (which its up-front lines make higher than the nodes' own: the look comes early, not late).
            double perSecond = cost.get().total() / Math.max(1.0, cost.get().hours() * 3600);
            long untilBudget = (long) ((budget - cost.get().total()) / perSecond);
            int wait = result.path("waitSeconds").asInt(STOPPING_WAIT_SECONDS);
            result.put("waitSeconds", (int) Math.max(STOPPING_WAIT_SECONDS, Math.min(wait, untilBudget)));
            return;
        }
        String why = String.format(
                        Locale.ROOT,
                        "the run's cost reached $%.2f, its budget of $%.2f (budgetUsd): the training was asked to"
                                + " checkpoint and stop",
                        cost.get().total(),
                        budget)
                + store.progress(run.runId())
                        .map(p -> ", " + p.epoch() + " of its " + p.epochs() + " epochs done")
                        .orElse("");
        store.update(run.runId(), r -> r.withResource(RunResources.BUDGET_REACHED, why));
        TrainingSuspension.suspend(
                objects, run.spec().training().launcher(), run.names().trainingJob());
        result.put("waitSeconds", STOPPING_WAIT_SECONDS);
    }
}
