package io.trainplane.local.sim;

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

    static AwsServiceException of(AwsService service, AwsServiceException.Builder builder, int status, String code, String message) {
        String requestId = UUID.randomUUID().toString();
        return builder
                .message(message)
                .statusCode(status)
                .requestId(requestId)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(code)
                        .errorMessage(message)
                        .serviceName(service.serviceId())
                        .sdkHttpResponse(SdkHttpResponse.builder().statusCode(status).putHeader("x-amzn-RequestId", requestId).build())
                        .build())
                .build();
    }
}
