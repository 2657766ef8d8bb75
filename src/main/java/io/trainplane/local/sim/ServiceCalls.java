package io.trainplane.local.sim;

import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.Callers;
import io.trainplane.local.iam.IamRequest;
import java.util.List;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;

/**
 * The front door of one simulated service: every call is logged as {@code service:Operation},
 * authorized for the caller bound to the thread (IAM first, as AWS does: a denied call changes
 * nothing), passes the {@link FaultPlan}, does its work, and may then time out as planned.
 */
final class ServiceCalls {
    private final AwsService service;
    private final CallLog calls;
    private final FaultPlan faults;
    private final Authorizer authorizer;
    private final Permissions permissions;

    ServiceCalls(AwsService service, CallLog calls, FaultPlan faults, Authorizer authorizer, Permissions permissions) {
        this.service = service;
        this.calls = calls;
        this.faults = faults;
        this.authorizer = authorizer;
        this.permissions = permissions;
    }

    <T> T call(String operation, SdkRequest request, Supplier<T> work) {
        calls.record(service.prefix(), operation);
        authorize(operation, request);
        faults.beforeCall(service, operation);
        T result = work.get();
        faults.afterCall(service, operation);
        return result;
    }

    /** Asks IAM every question the operation raises; the first denial is the service's AccessDeniedException. */
    private void authorize(String operation, SdkRequest request) {
        AuditEntry denied = check(permissions.of(operation, request));
        if (denied != null) {
            throw AwsErrors.accessDenied(service, denied);
        }
    }

    /**
     * Asks IAM what the service asks with the caller's credentials while it works (Cloud Control's
     * handlers, say): the first denial, or null when all are allowed.
     */
    AuditEntry check(List<IamRequest> questions) {
        var caller = Callers.current();
        for (IamRequest question : questions) {
            AuditEntry entry = authorizer.authorize(caller, question);
            if (!entry.decision().allowed()) {
                return entry;
            }
        }
        return null;
    }

    /** An error of the service: {@code builder} is the modeled exception's builder, already given its members. */
    AwsServiceException error(AwsServiceException.Builder builder, int status, String code, String message) {
        return AwsErrors.of(service, builder, status, code, message);
    }
}
