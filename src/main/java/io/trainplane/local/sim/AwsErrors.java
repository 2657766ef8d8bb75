package io.trainplane.local.sim;

import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.Decision;
import java.util.UUID;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Builds errors as the SDK unmarshals them from AWS: the modeled exception type, the HTTP status,
 * the error code and message in {@link AwsErrorDetails} (so {@code getMessage()} reads
 * "… (Service: Eks, Status Code: 409, Request ID: …)" and {@code isThrottlingException()} works).
 */
final class AwsErrors {
    private AwsErrors() {}

    /**
     * IAM's refusal as the service reports it, with AWS's wording
     * (https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html): EKS models
     * it as {@code AccessDeniedException} with HTTP 403 (EKS API reference, Errors); the JSON
     * protocol services answer the common error {@code AccessDeniedException} with HTTP 400
     * (https://docs.aws.amazon.com/efs/latest/ug/CommonErrors.html).
     */
    static AwsServiceException accessDenied(AwsService service, AuditEntry entry) {
        String message = deniedMessage(entry);
        return service == AwsService.EKS
                ? of(
                        service,
                        software.amazon.awssdk.services.eks.model.AccessDeniedException.builder(),
                        403,
                        "AccessDeniedException",
                        message)
                : of(service, service.errorBuilder(), 400, "AccessDeniedException", message);
    }

    static String deniedMessage(AuditEntry entry) {
        String why = entry.decision() == Decision.ExplicitlyDenied
                ? "with an explicit deny in an identity-based policy"
                : "because no identity-based policy allows the " + entry.action() + " action";
        return "User: " + entry.principal() + " is not authorized to perform: " + entry.action()
                + ("*".equals(entry.resource()) ? "" : " on resource: " + entry.resource()) + " " + why;
    }

    static AwsServiceException of(
            AwsService service, AwsServiceException.Builder builder, int status, String code, String message) {
        return of(service.serviceId(), builder, status, code, message);
    }

    static AwsServiceException of(
            String serviceId, AwsServiceException.Builder builder, int status, String code, String message) {
        String requestId = UUID.randomUUID().toString();
        return builder.message(message)
                .statusCode(status)
                .requestId(requestId)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(code)
                        .errorMessage(message)
                        .serviceName(serviceId)
                        .sdkHttpResponse(SdkHttpResponse.builder()
                                .statusCode(status)
                                .putHeader("x-amzn-RequestId", requestId)
                                .build())
                        .build())
                .build();
    }
}
