package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.workflow.TeardownOrder.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The order derived from dependencies alone, over a graph that is not the pipeline's. */
class TeardownOrderTest {
    /** "x depends on y": y must be gone before x is deleted. Given in an order the dependencies contradict. */
    static final Map<String, Set<String>> GRAPH = Map.of(
            "roof", Set.of(),
            "walls", Set.of("roof"),
            "windows", Set.of(),
            "floor", Set.of("walls", "windows"),
            "foundation", Set.of("floor"));

    static final List<String> GIVEN = List.of("foundation", "floor", "walls", "windows", "roof");

    @Test
    void eachKindComesAfterWhatItDependsOnWhateverOrderTheyAreGivenIn() {
        TeardownOrder<String> order = TeardownOrder.of(GIVEN, GRAPH::get);
        assertThat(order.order()).containsExactly("windows", "roof", "walls", "floor", "foundation");
        assertThat(order.waves())
                .containsExactly(List.of("windows", "roof"), List.of("walls"), List.of("floor"), List.of("foundation"));
        assertThat(TeardownOrder.of(GIVEN.reversed(), GRAPH::get).order())
                .containsExactly("roof", "windows", "walls", "floor", "foundation");
    }

    @Test
    void aKindWaitingOrRefusedHoldsBackOnlyWhatDependsOnIt() {
        TeardownOrder<String> order = TeardownOrder.of(GIVEN, GRAPH::get);
        List<String> attempted = new ArrayList<>();
        Map<String, Outcome> outcomes = order.pass(kind -> {
            attempted.add(kind);
            return kind.equals("walls") ? Outcome.REFUSED : kind.equals("windows") ? Outcome.WAITING : Outcome.GONE;
        });
        assertThat(attempted).containsExactly("windows", "roof", "walls");
        assertThat(outcomes)
                .containsExactly(
                        Map.entry("windows", Outcome.WAITING),
                        Map.entry("roof", Outcome.GONE),
                        Map.entry("walls", Outcome.REFUSED),
                        Map.entry("floor", Outcome.HELD),
                        Map.entry("foundation", Outcome.HELD));

        assertThat(order.pass(kind -> Outcome.GONE)).containsOnlyKeys(GIVEN).doesNotContainValue(Outcome.HELD);
    }

    @Test
    void cyclesAndUndeclaredKindsAreRefused() {
        assertThatThrownBy(() -> TeardownOrder.of(
                        List.of("a", "b", "c"), Map.of("a", Set.of("c"), "b", Set.of("a"), "c", Set.of("b"))::get))
                .hasMessageContaining("cycle");
        assertThatThrownBy(() -> TeardownOrder.of(List.of("a"), Map.of("a", Set.of("z"))::get))
                .hasMessageContaining("z, which is not declared");
        assertThatThrownBy(() ->
                        TeardownOrder.of(List.of("a"), k -> Set.<String>of()).pass(k -> Outcome.HELD))
                .isInstanceOf(IllegalStateException.class);
    }
}
