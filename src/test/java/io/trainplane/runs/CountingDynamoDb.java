package io.trainplane.runs;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * A DynamoDB client that counts the calls the store makes and the conditional writes refused, and
 * can hand back a stale item with the next refusal (an ALL_OLD item older than the one the
 * condition was checked on, which neither DynamoDB nor the twin's returns: RunStore must not trust one).
 */
final class CountingDynamoDb implements DynamoDbClient {
    final AtomicInteger gets = new AtomicInteger();
    final AtomicInteger puts = new AtomicInteger();
    final AtomicInteger refusedPuts = new AtomicInteger();
    final AtomicInteger queries = new AtomicInteger();
    /** When set, the next refused write returns this item as its ALL_OLD item. */
    final AtomicReference<Map<String, AttributeValue>> staleAllOld = new AtomicReference<>();

    private final DynamoDbClient delegate;

    CountingDynamoDb(DynamoDbClient delegate) {
        this.delegate = delegate;
    }

    @Override
    public GetItemResponse getItem(GetItemRequest request) {
        gets.incrementAndGet();
        return delegate.getItem(request);
    }

    @Override
    public PutItemResponse putItem(PutItemRequest request) {
        puts.incrementAndGet();
        try {
            return delegate.putItem(request);
        } catch (ConditionalCheckFailedException e) {
            refusedPuts.incrementAndGet();
            Map<String, AttributeValue> stale = staleAllOld.getAndSet(null);
            if (stale != null) {
                throw ConditionalCheckFailedException.builder()
                        .message(e.getMessage())
                        .item(stale)
                        .build();
            }
            throw e;
        }
    }

    @Override
    public QueryResponse query(QueryRequest request) {
        queries.incrementAndGet();
        return delegate.query(request);
    }

    @Override
    public String serviceName() {
        return delegate.serviceName();
    }

    @Override
    public void close() {
        // The shared engine's client is closed with the engine.
    }
}
