package io.trainplane.local.asl;

import static io.trainplane.local.asl.AslTesting.run;
import static io.trainplane.local.asl.AslTesting.script;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Step Functions' 256 KiB per state input, output and task result: beyond it, States.DataLimitExceeded, which no Catch takes. */
class PayloadQuotaTest {
    static final String CAUGHT =
            """
            {"StartAt": "Work", "States": {
              "Work": {"Type": "Task", "Resource": "arn:aws:lambda:us-east-1:000000000000:function:w",
                       "Catch": [{"ErrorEquals": ["States.ALL"], "Next": "Cleanup"}], "End": true},
              "Cleanup": {"Type": "Pass", "End": true}}}""";

    static String big(int bytes) {
        return "{\"blob\": \"" + "x".repeat(bytes) + "\"}";
    }

    @Test
    void aTaskResultOverTheQuotaFailsTheExecutionPastItsCatch() {
        var run = run(CAUGHT, "{}", script().returns(big(PayloadQuota.MAX_BYTES)));

        assertThat(run.result().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(run.result().error()).isEqualTo("States.DataLimitExceeded");
        assertThat(run.result().cause())
                .contains("state/task 'Work' result", "larger than the maximum of 262144 bytes");
        assertThat(run.types()).doesNotContain("PassStateEntered");
    }

    @Test
    void aResultJustUnderTheQuotaPasses() {
        var run = run(CAUGHT, "{}", script().returns(big(PayloadQuota.MAX_BYTES - 100)));

        assertThat(run.result().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    }

    @Test
    void aStateOutputOverTheQuotaFails() {
        var run = run(
                """
                {"StartAt": "Grow", "States": {"Grow": {"Type": "Pass", "Result": %s, "End": true}}}"""
                        .formatted(big(PayloadQuota.MAX_BYTES)),
                "{}",
                script());

        assertThat(run.result().error()).isEqualTo("States.DataLimitExceeded");
        assertThat(run.result().cause()).contains("state/task 'Grow' output");
    }
}
