package io.trainplane.local.sim;

import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

/**
 * The front door of one simulated service: every call is logged as {@code service:Operation},
 * passes the {@link FaultPlan}, does its work, and may then time out as planned.
 */
final class ServiceCalls {
    private final AwsService service;
    private final CallLog calls;
    private final FaultPlan faults;

    ServiceCalls(AwsService service, CallLog calls, FaultPlan faults) {
        this.service = service;
        this.calls = calls;
        this.faults = faults;
    }

    <T> T call(String operation, Supplier<T> work) {
        calls.record(service.prefix(), operation);
        faults.beforeCall(service, operation);
        T result = work.get();
        faults.afterCall(service, operation);
        return result;
    }

    /** An error of the service: {@code builder} is the modeled exception's builder, already given its members. */
    AwsServiceException error(AwsServiceException.Builder builder, int status, String code, String message) {
        return AwsErrors.of(service, builder, status, code, message);
    }
}
