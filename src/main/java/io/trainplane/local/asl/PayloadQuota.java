package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.nio.charset.StandardCharsets;

/**
 * Step Functions' payload quota: "Maximum input or output size for a task, state, or execution:
 * 256 KiB of data as a UTF-8 encoded string" (https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html).
 * Beyond it a state fails with States.DataLimitExceeded, which no Retry or Catch matches (not even
 * States.ALL: https://docs.aws.amazon.com/step-functions/latest/dg/concepts-error-handling.html):
 * the execution fails without its cleanup.
 */
final class PayloadQuota {
    static final int MAX_BYTES = 256 * 1024;

    private PayloadQuota() {}

    /** Fails with States.DataLimitExceeded when {@code payload} is over the quota; {@code what} says which. */
    static JsonNode check(JsonNode payload, String what) {
        int bytes = Json.write(payload).getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw new StatesError(
                    ErrorNames.DATA_LIMIT_EXCEEDED,
                    "The " + what + " is " + bytes + " bytes, larger than the maximum of " + MAX_BYTES + " bytes.");
        }
        return payload;
    }
}
