package io.trainplane.local.sim;

import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.Callers;
import io.trainplane.local.iam.IamRequest;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The twin's DynamoDB ({@link io.trainplane.local.dynamodb.SqliteDynamoDb}) behind IAM: each call is authorized for the caller bound to
 * the thread before it reaches the table, on the table's ARN, or the index's for a query of one
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html).
 * Only the operations the stack uses are offered; any other fails as unsupported.
 */
public final class AuthorizedDynamoDb implements DynamoDbClient {
    private static final String TABLE = IamRequests.ARN + "dynamodb:" + IamRequests.REGIONAL + "table/";
    private final DynamoDbClient table;
    private final Authorizer authorizer;

    public AuthorizedDynamoDb(DynamoDbClient table, Authorizer authorizer) {
        this.table = table;
        this.authorizer = authorizer;
    }

    @Override
    public GetItemResponse getItem(GetItemRequest request) {
        return authorized("GetItem", request.tableName(), null, () -> table.getItem(request));
    }

    @Override
    public PutItemResponse putItem(PutItemRequest request) {
        return authorized("PutItem", request.tableName(), null, () -> table.putItem(request));
    }

    @Override
    public UpdateItemResponse updateItem(UpdateItemRequest request) {
        return authorized("UpdateItem", request.tableName(), null, () -> table.updateItem(request));
    }

    @Override
    public DeleteItemResponse deleteItem(DeleteItemRequest request) {
        return authorized("DeleteItem", request.tableName(), null, () -> table.deleteItem(request));
    }

    @Override
    public QueryResponse query(QueryRequest request) {
        return authorized("Query", request.tableName(), request.indexName(), () -> table.query(request));
    }

    @Override
    public ScanResponse scan(ScanRequest request) {
        return authorized("Scan", request.tableName(), request.indexName(), () -> table.scan(request));
    }

    @Override
    public DescribeTableResponse describeTable(DescribeTableRequest request) {
        return authorized("DescribeTable", request.tableName(), null, () -> table.describeTable(request));
    }

    @Override
    public CreateTableResponse createTable(CreateTableRequest request) {
        return authorized("CreateTable", request.tableName(), null, () -> table.createTable(request));
    }

    private <T> T authorized(String operation, String tableName, String index, Supplier<T> call) {
        String resource = TABLE + tableName + (index == null ? "" : "/index/" + index);
        AuditEntry entry = authorizer.authorize(Callers.current(), IamRequest.of("dynamodb:" + operation, resource));
        if (!entry.decision().allowed()) {
            throw AwsErrors.of(
                    "DynamoDb",
                    DynamoDbException.builder(),
                    400,
                    "AccessDeniedException",
                    AwsErrors.deniedMessage(entry));
        }
        return call.get();
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {
        table.close();
    }
}
