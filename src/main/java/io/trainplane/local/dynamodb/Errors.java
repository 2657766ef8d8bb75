package io.trainplane.local.dynamodb;

import java.util.Map;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/** The errors the store answers with, as DynamoDB names and words them (HTTP 400, its error codes). */
final class Errors {
    private Errors() {}

    static DynamoDbException validation(String message) {
        return (DynamoDbException) DynamoDbException.builder()
                .message(message)
                .statusCode(400)
                .awsErrorDetails(details("ValidationException", message))
                .build();
    }

    /**
     * A condition that evaluated false: "The conditional request failed", with the item as it was
     * when {@code ReturnValuesOnConditionCheckFailure} is {@code ALL_OLD} and the item exists.
     */
    static ConditionalCheckFailedException conditionFailed(Map<String, AttributeValue> old) {
        String message = "The conditional request failed";
        var builder = ConditionalCheckFailedException.builder()
                .message(message)
                .statusCode(400)
                .awsErrorDetails(details("ConditionalCheckFailedException", message));
        if (old != null) {
            builder.item(old);
        }
        return (ConditionalCheckFailedException) builder.build();
    }

    static ResourceNotFoundException tableNotFound() {
        String message = "Requested resource not found";
        return (ResourceNotFoundException) ResourceNotFoundException.builder()
                .message(message)
                .statusCode(400)
                .awsErrorDetails(details("ResourceNotFoundException", message))
                .build();
    }

    static ResourceInUseException tableExists(String table) {
        String message = "Table already exists: " + table;
        return (ResourceInUseException) ResourceInUseException.builder()
                .message(message)
                .statusCode(400)
                .awsErrorDetails(details("ResourceInUseException", message))
                .build();
    }

    private static AwsErrorDetails details(String code, String message) {
        return AwsErrorDetails.builder()
                .errorCode(code)
                .errorMessage(message)
                .serviceName("DynamoDb")
                .build();
    }
}
