package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.asl.TaskContext;
import io.trainplane.local.asl.TaskFailure;
import org.junit.jupiter.api.Test;

/** Lambda's 6 MB request and response quota for a synchronous invocation. */
class LambdaPayloadsTest {
    @Test
    void aRequestOverSixMebibytesIsRefusedBeforeTheFunctionRuns() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            LocalLambdas lambdas = new LocalLambdas(cloud, Faults.none());
            var payload = Json.object().put("runId", "big").put("spec", "x".repeat(LambdaPayloads.MAX_REQUEST_BYTES));
            TaskFailure refused = catchThrowableOfType(
                    TaskFailure.class,
                    () -> lambdas.invoke(
                            lambdas.arn("StartRun"), payload, new TaskContext("big", "StartRun", 0, TestTime.START)));
            assertThat(refused.error()).isEqualTo("Lambda.RequestTooLargeException");
            assertThat(refused.cause()).contains("Request must be smaller than 6291456 bytes");
            assertThat(cloud.calls().counts()).as("the function made no call").isEmpty();
        }
    }

    @Test
    void theLimitsAreLambdasOwnNumbers() throws TaskFailure {
        LambdaPayloads.checkRequest(6 * 1024 * 1024);
        assertThat(catchThrowableOfType(TaskFailure.class, () -> LambdaPayloads.checkRequest(6 * 1024 * 1024 + 1))
                        .error())
                .isEqualTo(LambdaPayloads.REQUEST_TOO_LARGE);
        assertThat(LambdaPayloads.responseTooLarge(6_291_556)).isFalse();
        assertThat(LambdaPayloads.responseTooLarge(6_291_557)).isTrue();
        assertThat(LambdaPayloads.responseMessage())
                .isEqualTo("Response payload size exceeded maximum allowed payload size (6291556 bytes).");
    }
}
