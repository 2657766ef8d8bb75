package io.trainplane.aws;

import io.trainplane.spec.ClusterSpec;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.SpecProblem;
import io.trainplane.spec.VolumeType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a stack lets one run spend, set by its parameters (template.yaml) and enforced by StartRun
 * before anything is created, whoever starts the run (CLI, console, API, schedule): the nodes a run
 * adds, their instance types, the plan's worst-case cost, the runs going on at once, an FSx for
 * Lustre volume's size. {@link #NONE} bounds nothing (tests and stacks built without them).
 *
 * @param maxNodesPerRun       MaxNodesPerRun: the nodes a run creates or scales up
 * @param allowedInstanceTypes AllowedInstanceTypes: patterns ({@code *} any characters) an instance
 *                             type must match, e.g. {@code g5.*}
 * @param maxRunCostUsd        MaxRunCostUsd: the most the plan's worst case (the run lasting
 *                             maxRunHours) may cost, US dollars
 * @param maxConcurrentRuns    MaxConcurrentRuns: runs not yet over, the new one included
 * @param maxVolumeGiB         MaxVolumeGiB: an FSx for Lustre file system's storage
 * @param defaultRunBudgetUsd  DefaultRunBudgetUsd: the budget of a run whose spec sets no
 *                             {@code budgetUsd}; null (the parameter 0) for none
 */
public record RunCeilings(
        int maxNodesPerRun,
        List<String> allowedInstanceTypes,
        double maxRunCostUsd,
        int maxConcurrentRuns,
        int maxVolumeGiB,
        Double defaultRunBudgetUsd) {
    public static final RunCeilings NONE = new RunCeilings(
            Integer.MAX_VALUE, List.of("*"), Double.POSITIVE_INFINITY, Integer.MAX_VALUE, Integer.MAX_VALUE, null);

    public RunCeilings {
        allowedInstanceTypes = List.copyOf(allowedInstanceTypes);
    }

    /** Each ceiling's stack parameter and the environment variable template.yaml passes it to the functions in. */
    static final Map<String, String> PARAMETERS = Map.of(
            "MaxNodesPerRun", "MAX_NODES_PER_RUN",
            "AllowedInstanceTypes", "ALLOWED_INSTANCE_TYPES",
            "MaxRunCostUsd", "MAX_RUN_COST_USD",
            "MaxConcurrentRuns", "MAX_CONCURRENT_RUNS",
            "MaxVolumeGiB", "MAX_VOLUME_GIB",
            "DefaultRunBudgetUsd", "DEFAULT_RUN_BUDGET_USD");

    /** The ceilings of a deployed stack, from its parameters (DescribeStacks); a parameter it lacks bounds nothing. */
    public static RunCeilings fromParameters(Map<String, String> parameters) {
        Map<String, String> env = new java.util.HashMap<>();
        PARAMETERS.forEach((parameter, variable) -> {
            if (parameters.containsKey(parameter)) {
                env.put(variable, parameters.get(parameter));
            }
        });
        return fromMap(env);
    }

    /** The stack's parameters, as template.yaml passes them to the functions; a variable not set bounds nothing. */
    static RunCeilings fromMap(Map<String, String> env) {
        List<String> types = Arrays.stream(
                        env.getOrDefault("ALLOWED_INSTANCE_TYPES", "*").split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
        return new RunCeilings(
                (int) number(env, "MAX_NODES_PER_RUN", "MaxNodesPerRun", NONE.maxNodesPerRun),
                types.isEmpty() ? NONE.allowedInstanceTypes : types,
                number(env, "MAX_RUN_COST_USD", "MaxRunCostUsd", NONE.maxRunCostUsd),
                (int) number(env, "MAX_CONCURRENT_RUNS", "MaxConcurrentRuns", NONE.maxConcurrentRuns),
                (int) number(env, "MAX_VOLUME_GIB", "MaxVolumeGiB", NONE.maxVolumeGiB),
                budget(number(env, "DEFAULT_RUN_BUDGET_USD", "DefaultRunBudgetUsd", 0)));
    }

    private static Double budget(double usd) {
        return usd > 0 ? usd : null;
    }

    /** The budget a run of {@code spec} gets: its own budgetUsd, else the stack's default; null for none. */
    public Double budgetOf(RunSpec spec) {
        return spec.budgetUsd() != null ? spec.budgetUsd() : defaultRunBudgetUsd;
    }

    private static double number(Map<String, String> env, String variable, String parameter, double none) {
        String value = env.get(variable);
        if (value == null || value.isBlank()) {
            return none;
        }
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException(
                    "stack parameter " + parameter + " (environment variable " + variable + ") is not a number: '"
                            + value + "'",
                    e);
        }
    }

    /**
     * What in {@code spec} goes past a ceiling, each naming the parameter that sets it:
     * {@code worstCaseUsd} is the plan's worst case (null: not priced, so a cost ceiling or a budget
     * cannot be held and is refused), {@code runningRuns} the runs of the stack not yet over.
     */
    public List<SpecProblem> problems(RunSpec spec, Double worstCaseUsd, int runningRuns) {
        List<SpecProblem> problems = new ArrayList<>();
        ClusterSpec cluster = spec.cluster();
        String nodesPointer = cluster.created() ? "/cluster/nodeGroup/nodes" : "/cluster/nodes";
        Integer nodes = cluster.created() ? Integer.valueOf(cluster.nodeGroup().nodes()) : cluster.nodes();
        if (nodes != null && nodes > maxNodesPerRun) {
            problems.add(new SpecProblem(
                    nodesPointer,
                    nodes + " nodes is more than this stack lets a run add (its parameter MaxNodesPerRun is "
                            + maxNodesPerRun + ")",
                    "ask for at most " + maxNodesPerRun
                            + ", or ask whoever deploys the stack to raise MaxNodesPerRun"));
        }
        List<String> types = cluster.created()
                ? cluster.nodeGroup().types()
                : cluster.instanceType() == null ? List.of() : List.of(cluster.instanceType());
        String typesPointer = cluster.created()
                ? cluster.nodeGroup().instanceType() != null
                        ? "/cluster/nodeGroup/instanceType"
                        : "/cluster/nodeGroup/instanceTypes"
                : "/cluster/instanceType";
        for (String type : types) {
            if (!allowed(type)) {
                problems.add(new SpecProblem(
                        typesPointer,
                        type
                                + " is not among the instance types this stack allows (its parameter AllowedInstanceTypes is "
                                + String.join(",", allowedInstanceTypes) + ")",
                        "use an allowed type, or ask whoever deploys the stack to add it to AllowedInstanceTypes"));
            }
        }
        if (spec.volume().type() == VolumeType.FSX_LUSTRE && spec.volume().lustreStorageCapacityGiB() > maxVolumeGiB) {
            problems.add(new SpecProblem(
                    "/volume/storageCapacityGiB",
                    spec.volume().lustreStorageCapacityGiB() + " GiB is more than this stack lets a run's volume hold"
                            + " (its parameter MaxVolumeGiB is " + maxVolumeGiB + ")",
                    "ask for at most " + maxVolumeGiB
                            + " GiB, or ask whoever deploys the stack to raise MaxVolumeGiB"));
        }
        if (worstCaseUsd != null && worstCaseUsd > maxRunCostUsd) {
            problems.add(new SpecProblem(
                    "/maxRunHours",
                    String.format(
                            Locale.ROOT,
                            "the run's worst case (it lasts maxRunHours, %d h) is $%,.0f, more than this stack lets a run"
                                    + " cost (its parameter MaxRunCostUsd is $%,.0f)",
                            spec.maxRunHours(),
                            worstCaseUsd,
                            maxRunCostUsd),
                    "lower maxRunHours, use fewer or smaller nodes (trainplane plan prices them), or ask whoever"
                            + " deploys the stack to raise MaxRunCostUsd"));
        }
        if (worstCaseUsd == null && maxRunCostUsd != Double.POSITIVE_INFINITY) {
            problems.add(new SpecProblem(
                    "/maxRunHours",
                    String.format(
                            Locale.ROOT,
                            "the run's worst case cannot be priced (the price snapshot lacks a price it needs:"
                                    + " trainplane plan names it), so this stack's MaxRunCostUsd ($%,.0f) cannot be held",
                            maxRunCostUsd),
                    "use an instance type and Region the price snapshot prices (src/main/resources/prices), or ask"
                            + " whoever deploys the stack to refresh the prices or clear MaxRunCostUsd"));
        }
        Double budget = budgetOf(spec);
        if (worstCaseUsd == null && budget != null) {
            problems.add(new SpecProblem(
                    "/budgetUsd",
                    String.format(
                            Locale.ROOT,
                            "a budget of $%,.2f cannot be held: the run's cost cannot be priced (the price snapshot"
                                    + " lacks a price it needs: trainplane plan names it)",
                            budget),
                    "use an instance type and Region the price snapshot prices (src/main/resources/prices), or run"
                            + " without a budget (no budgetUsd, and the stack's DefaultRunBudgetUsd unset)"));
        }
        if (runningRuns >= maxConcurrentRuns) {
            problems.add(new SpecProblem(
                    "",
                    runningRuns + " runs of this stack are going on, as many as its parameter MaxConcurrentRuns ("
                            + maxConcurrentRuns + ") allows",
                    "start the run once one of them is over (trainplane list), or ask whoever deploys the stack to"
                            + " raise MaxConcurrentRuns"));
        }
        return problems;
    }

    /**
     * As {@link #problems}, thrown: what the CLI checks before a run, as StartRun will (it counts
     * the runs going on; the CLI passes 0).
     */
    public void require(RunSpec spec, Double worstCaseUsd, int runningRuns) {
        List<SpecProblem> problems = problems(spec, worstCaseUsd, runningRuns);
        if (!problems.isEmpty()) {
            throw new io.trainplane.spec.InvalidSpecException(problems);
        }
    }

    /** Whether {@code type} matches one of the allowed patterns ({@code *} any characters, nothing else special). */
    boolean allowed(String type) {
        return allowedInstanceTypes.stream()
                .anyMatch(pattern -> Pattern.matches(
                        Arrays.stream(pattern.split("\\*", -1))
                                .map(Pattern::quote)
                                .reduce((a, b) -> a + ".*" + b)
                                .orElse(""),
                        type));
    }
}
