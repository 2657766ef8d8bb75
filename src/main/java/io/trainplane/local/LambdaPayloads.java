package io.trainplane.local;

import io.trainplane.local.asl.TaskFailure;
import java.util.Locale;

/**
 * Lambda's payload quota for a synchronous invocation, the way Step Functions invokes: "6 MB each
 * for request and response" (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html).
 * A request over it is refused by the Invoke API (RequestTooLargeException, which Step Functions
 * names {@code Lambda.RequestTooLargeException}); a response over it is the function's error
 * {@code Function.ResponseSizeTooLarge}, after the function has run. Step Functions' own 256 KiB
 * per state is smaller and is checked by the executor; this is Lambda's side of the call.
 */
final class LambdaPayloads {
    /** 6 MiB: the Invoke API's request limit, in bytes. */
    static final int MAX_REQUEST_BYTES = 6_291_456;
    /** The response limit Lambda names in its error (6 MiB and 100 bytes). */
    static final int MAX_RESPONSE_BYTES = 6_291_556;

    static final String REQUEST_TOO_LARGE = "Lambda.RequestTooLargeException";
    static final String RESPONSE_TOO_LARGE = "Function.ResponseSizeTooLarge";

    private LambdaPayloads() {}

    /** Refuses a request body of {@code bytes} over the quota, before the function runs. */
    static void checkRequest(int bytes) throws TaskFailure {
        if (bytes > MAX_REQUEST_BYTES) {
            throw new TaskFailure(
                    REQUEST_TOO_LARGE,
                    String.format(
                            Locale.ROOT,
                            "Request must be smaller than %d bytes for the InvokeFunction operation"
                                    + " (Service: Lambda, Status Code: 413, Error Code: RequestTooLargeException)",
                            MAX_REQUEST_BYTES));
        }
    }

    /** Whether a response of {@code bytes} is over the quota (the caller reports {@link #responseMessage}). */
    static boolean responseTooLarge(int bytes) {
        return bytes > MAX_RESPONSE_BYTES;
    }

    static String responseMessage() {
        return "Response payload size exceeded maximum allowed payload size (" + MAX_RESPONSE_BYTES + " bytes).";
    }
}
