package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunPrices;
import io.trainplane.core.Json;
import io.trainplane.runs.RunCost;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.StepEntry;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Records a run's {@link ActualCost} when it ends (FinishRun, and RecordFailure when it ends the
 * run): once, a record that has its cost keeps it, so a retried step writes the same. A cost that
 * cannot be computed is left out with a warning: ending the run never depends on it.
 */
public final class RunCostRecorder {
    private static final Logger LOG = Logger.getLogger(RunCostRecorder.class.getName());

    private final RunStore store;
    private final Clock clock;
    private final Supplier<RunPrices> prices;

    public RunCostRecorder(RunStore store, Clock clock, Supplier<RunPrices> prices) {
        this.store = store;
        this.clock = clock;
        this.prices = prices;
    }

    /** With the price table of the stack's {@code region} ({@link RunPrices#forRegion}), read on the first run that ends. */
    public static RunCostRecorder withRegionPrices(RunStore store, Clock clock, String region) {
        RunPrices[] loaded = new RunPrices[1];
        return new RunCostRecorder(store, clock, () -> {
            if (loaded[0] == null) {
                loaded[0] = RunPrices.forRegion(region);
            }
            return loaded[0];
        });
    }

    /** The prices costs are measured with. */
    RunPrices prices() {
        return prices.get();
    }

    /** The run's timeline, which the cost is measured from; empty when it cannot be read. */
    public List<StepEntry> steps(String runId) {
        try {
            return store.steps(runId);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "run " + runId + ": timeline not read, the cost leaves the steps out", e);
            return List.of();
        }
    }

    /** What {@code run} has cost so far (a budget's measure); empty when it cannot be computed. */
    public Optional<RunCost> soFar(RunRecord run) {
        try {
            return Optional.of(ActualCost.of(run, store.steps(run.runId()), clock.instant(), prices.get()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "run " + run.runId() + ": cost so far not computed", e);
            return Optional.empty();
        }
    }

    /** {@code run} with its actual cost, unless it has one (or it cannot be computed). */
    public RunRecord withCost(RunRecord run, List<StepEntry> steps) {
        if (run.cost() != null) {
            return run;
        }
        try {
            return run.withCost(ActualCost.of(run, steps, clock.instant(), prices.get()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "run " + run.runId() + ": actual cost not computed", e);
            return run;
        }
    }

    /** The cost as events, {@code status --output json} and the local summary write it (events/schemas: actualCost). */
    public static ObjectNode json(RunCost cost) {
        ObjectNode n = Json.object()
                .put("currency", "USD")
                .put("total", cost.total())
                .put("hours", cost.hours())
                .put("priceTable", cost.priceTable());
        ArrayNode lines = n.putArray("lines");
        for (RunCost.Line l : cost.lines()) {
            ObjectNode o = lines.addObject()
                    .put("item", l.item())
                    .put("quantity", l.quantity())
                    .put("unit", l.unit());
            if (l.unitPrice() == null) {
                o.putNull("unitPrice").putNull("cost");
            } else {
                o.put("unitPrice", l.unitPrice()).put("cost", l.cost());
            }
        }
        ArrayNode basis = n.putArray("basis");
        cost.basis().forEach(basis::add);
        return n;
    }
}
