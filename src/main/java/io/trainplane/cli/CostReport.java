package io.trainplane.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunPrices;
import io.trainplane.core.Json;
import io.trainplane.runs.CostEstimate;
import io.trainplane.runs.RunCost;
import io.trainplane.runs.RunRecord;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.RunCostRecorder;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;

/**
 * A run's actual cost (recorded when it ended) beside the plan's estimate of the same spec on the
 * run's day, line by line: the two name their items alike. For {@code status}.
 */
final class CostReport {
    private CostReport() {}

    /**
     * The Region the run ran in: its execution's (arn:aws:states:REGION:…; a local run's reads
     * "local"), else its recorded cost's price table's, else the default Region.
     */
    static String region(RunRecord run) {
        String[] arn =
                run.executionArn() == null ? new String[0] : run.executionArn().split(":");
        if (arn.length > 3 && io.trainplane.spec.InstanceShapes.knowsRegion(arn[3])) {
            return arn[3];
        }
        if (run.cost() != null && run.cost().priceTable() != null) {
            return run.cost().priceTable().split(" ")[0];
        }
        return RunPrices.DEFAULT_REGION;
    }

    /** The plan's estimate of the run's spec at its Region's prices; empty when the spec no longer plans (a record older than a rule). */
    static Optional<CostEstimate> estimate(RunRecord run) {
        try {
            return Optional.of(CostEstimate.of(
                    RunSpecs.fromNormalized(run.specJson()),
                    RunPrices.forRegion(region(run)),
                    KubernetesVersions.day(run.createdAt())));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code {actual: {...} | null, estimate: {total, worstCase} | null}}. */
    static ObjectNode toJson(RunRecord run) {
        ObjectNode n = Json.object();
        if (run.cost() == null) {
            n.putNull("actual");
        } else {
            n.set("actual", RunCostRecorder.json(run.cost()));
        }
        Optional<CostEstimate> estimate = estimate(run);
        if (estimate.isEmpty()) {
            n.putNull("estimate");
        } else {
            n.putObject("estimate")
                    .put("expectedHours", CostEstimate.round(estimate.get().expectedHours()))
                    .put("total", CostEstimate.round(estimate.get().expectedTotal()))
                    .put("worstCaseHours", estimate.get().worstCaseHours())
                    .put("worstCaseTotal", CostEstimate.round(estimate.get().worstCaseTotal()));
        }
        return n;
    }

    static void print(PrintWriter out, RunRecord run) {
        Optional<CostEstimate> estimate = estimate(run);
        String plan = estimate.map(e -> String.format(
                        "plan: expected %s, worst case %s", money(e.expectedTotal()), money(e.worstCaseTotal())))
                .orElse("no plan estimate");
        RunCost cost = run.cost();
        if (cost == null) {
            out.println("cost:       actual not known until the run ends; " + plan);
            return;
        }
        out.printf(
                "cost:       actual %s (USD, %.2f h, %s); %s%n",
                money(cost.total()), cost.hours(), cost.priceTable(), plan);
        List<CostEstimate.Line> expected = estimate.map(CostEstimate::expected).orElse(List.of());
        out.printf("            %-36s %14s %-18s %12s %12s%n", "", "used", "", "actual", "plan");
        for (RunCost.Line l : cost.lines()) {
            String planned = expected.stream()
                    .filter(e -> e.item().equals(l.item()) && e.cost() != null)
                    .findFirst()
                    .map(e -> money(e.cost()))
                    .orElse("-");
            out.printf(
                    "            %-36s %14.6f %-18s %12s %12s%n",
                    l.item(), l.quantity(), l.unit(), l.cost() == null ? "?" : money(l.cost()), planned);
        }
        cost.basis().forEach(b -> out.println("            basis: " + b));
    }

    /** Dollars with cents, or with four decimals below a cent (a local run costs little). */
    static String money(double usd) {
        if (usd > 0 && usd < 0.0001) {
            return "<$0.0001";
        }
        return usd != 0 && Math.abs(usd) < 0.01 ? String.format("$%.4f", usd) : String.format("$%.2f", usd);
    }
}
