package io.trainplane.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.Prerequisite;
import io.trainplane.bench.ColdStart.Row;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ./bench/run coldstart end to end for one function and one run: the endpoints start, the harness
 * compiles, the function's calls are recorded and its own baseline generated, and every process
 * serves its invocation. The measured processes run on the test classpath
 * (the Lambda jar is packaged after the tests); skipped without moto_server.
 */
class ColdStartSmokeTest {
    @Test
    void measuresAFunctionBesideTheBaseline() throws Exception {
        Prerequisite.require(ColdStartEndpoints.moto().isPresent(), ColdStartEndpoints.NO_MOTO);
        String classpath = System.getProperty("java.class.path");

        List<Row> rows = ColdStart.run(Path.of("."), List.of("StartRun"), 1, 0, function -> classpath)
                .orElseThrow();

        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.served())
                    .as("both processes served their invocation")
                    .isTrue();
            assertThat(row.function_()).singleElement().satisfies(s -> {
                assertThat(s.outcome()).isEqualTo("ok");
                assertThat(s.peakRssKb()).isPositive();
                assertThat(s.builtMillis()).isPositive().isLessThan(s.doneMillis());
            });
            assertThat(row.calls())
                    .as("StartRun's AWS calls were recorded for its own baseline, which makes them again")
                    .matches("[1-9][0-9]* AWS \\+ 0 Kubernetes");
            assertThat(row.baseline()).singleElement().satisfies(s -> assertThat(s.outcome())
                    .isEqualTo("ok"));
            assertThat(row.putItem()).hasSize(1);
            assertThat(row.ratio()).isPositive();
        });
    }
}
