package io.trainplane.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import io.trainplane.spec.SpecProblem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stack's ceilings refuse what goes past them, each problem naming its parameter. */
class RunCeilingsTest {
    static final RunCeilings STACK = RunCeilings.fromParameters(Map.of(
            "MaxNodesPerRun", "8",
            "AllowedInstanceTypes", "c5.*,g5.2xlarge",
            "MaxRunCostUsd", "1000",
            "MaxConcurrentRuns", "3",
            "MaxVolumeGiB", "4800"));

    static RunSpec created(String type, int nodes) {
        return RunSpecs.parse("{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\": \"" + type
                + "\", \"nodes\": " + nodes + "}}}");
    }

    @Test
    void aSpecWithinEveryCeilingPasses() {
        assertThat(STACK.problems(created("c5.2xlarge", 8), 999.0, 2)).isEmpty();
        assertThat(STACK.problems(created("g5.2xlarge", 1), 10.0, 0)).isEmpty();
    }

    @Test
    void eachCeilingIsRefusedNamingItsParameterAndWhereInTheSpec() {
        assertThat(STACK.problems(created("c5.2xlarge", 9), 10.0, 0))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/cluster/nodeGroup/nodes");
                    assertThat(p.message()).contains("9 nodes").contains("MaxNodesPerRun is 8");
                });
        assertThat(STACK.problems(created("p5.48xlarge", 1), 10.0, 0))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/cluster/nodeGroup/instanceType");
                    assertThat(p.message()).contains("p5.48xlarge").contains("AllowedInstanceTypes is c5.*,g5.2xlarge");
                });
        // The pattern's dot is a dot: g5x2xlarge is not g5.2xlarge.
        assertThat(STACK.allowed("g5x2xlarge")).isFalse();
        assertThat(STACK.allowed("c5a.2xlarge")).isFalse();
        assertThat(STACK.allowed("c5.24xlarge")).isTrue();
        assertThat(STACK.problems(created("c5.2xlarge", 2), 1_388_567.0, 0))
                .extracting(SpecProblem::message)
                .singleElement()
                .asString()
                .contains("$1,388,567")
                .contains("MaxRunCostUsd is $1,000");
        assertThat(STACK.problems(created("c5.2xlarge", 2), 10.0, 3))
                .extracting(SpecProblem::message)
                .singleElement()
                .asString()
                .contains("3 runs of this stack are going on")
                .contains("MaxConcurrentRuns (3)");
        RunSpec lustre = RunSpecs.parse(
                "{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\":"
                        + " \"c5.2xlarge\", \"nodes\": 1}}, \"volume\": {\"type\": \"fsx-lustre\", \"storageCapacityGiB\": 2400000}}");
        assertThat(STACK.problems(lustre, 10.0, 0)).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/volume/storageCapacityGiB");
            assertThat(p.message()).contains("MaxVolumeGiB is 4800");
        });
    }

    @Test
    void aStackWithoutTheParametersBoundsNothingAndABadValueNamesTheParameter() {
        assertThat(RunCeilings.fromParameters(Map.of())).isEqualTo(RunCeilings.NONE);
        assertThat(RunCeilings.NONE.problems(created("p5.48xlarge", 64), 1e9, 1000))
                .isEmpty();
        assertThatThrownBy(() -> RunCeilings.fromParameters(Map.of("MaxRunCostUsd", "lots")))
                .hasMessageContaining("stack parameter MaxRunCostUsd")
                .hasMessageContaining("'lots'");
        assertThat(RunCeilings.fromParameters(Map.of("AllowedInstanceTypes", ""))
                        .allowedInstanceTypes())
                .isEqualTo(List.of("*"));
    }

    @Test
    void aRunsBudgetIsItsOwnElseTheStacksDefaultAndZeroMeansNone() {
        RunSpec without = created("c5.2xlarge", 1);
        RunSpec with = RunSpecs.parse("{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\":"
                + " \"c5.2xlarge\", \"nodes\": 1}}, \"budgetUsd\": 12.5}");
        RunCeilings defaulted = RunCeilings.fromParameters(Map.of("DefaultRunBudgetUsd", "40"));

        assertThat(defaulted.budgetOf(without)).isEqualTo(40.0);
        assertThat(defaulted.budgetOf(with)).isEqualTo(12.5);
        assertThat(RunCeilings.fromParameters(Map.of("DefaultRunBudgetUsd", "0"))
                        .budgetOf(without))
                .isNull();
        assertThat(STACK.budgetOf(without)).isNull();
        assertThat(STACK.budgetOf(with)).isEqualTo(12.5);
        assertThatThrownBy(() -> RunSpecs.parse("{\"cluster\": {\"mode\": \"create\", \"nodeGroup\":"
                        + " {\"instanceType\": \"c5.2xlarge\", \"nodes\": 1}}, \"budgetUsd\": 0}"))
                .hasMessageContaining("/budgetUsd");
    }

    @Test
    void aWorstCaseThePricesCannotReachIsRefusedWhereACostCeilingOrABudgetMustHoldIt() {
        // p6-b200.48xlarge is in the EC2 catalog, not in us-east-1's price file; ap-southeast-4 has no price file.
        var unpricedType = io.trainplane.runs.CostEstimate.of(
                created("p6-b200.48xlarge", 1),
                RunPrices.forRegion("us-east-1"),
                java.time.LocalDate.parse("2026-11-28"));
        var unpricedRegion = io.trainplane.runs.CostEstimate.of(
                created("c5.2xlarge", 2),
                RunPrices.forRegion("ap-southeast-4"),
                java.time.LocalDate.parse("2026-11-28"));
        var priced = io.trainplane.runs.CostEstimate.of(
                created("c5.2xlarge", 2), RunPrices.forRegion("us-east-1"), java.time.LocalDate.parse("2026-11-28"));
        assertThat(unpricedType.ceilingWorstCase()).isNull();
        assertThat(unpricedRegion.ceilingWorstCase()).isNull();
        assertThat(priced.ceilingWorstCase()).isPositive();

        assertThat(STACK.problems(created("c5.2xlarge", 2), null, 0))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/maxRunHours");
                    assertThat(p.message()).contains("cannot be priced").contains("MaxRunCostUsd ($1,000)");
                });
        RunCeilings budgeted = RunCeilings.fromParameters(Map.of("DefaultRunBudgetUsd", "50"));
        assertThat(budgeted.problems(created("c5.2xlarge", 2), null, 0))
                .singleElement()
                .satisfies(p -> assertThat(p.pointer()).isEqualTo("/budgetUsd"));
        // Without a cost ceiling or a budget there is nothing to hold.
        assertThat(RunCeilings.NONE.problems(created("c5.2xlarge", 2), null, 0)).isEmpty();
    }
}
