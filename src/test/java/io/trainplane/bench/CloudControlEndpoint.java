package io.trainplane.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.trainplane.core.Json;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.sim.CallLog;
import io.trainplane.local.sim.FaultPlan;
import io.trainplane.local.sim.SimulatedCapacity;
import io.trainplane.local.sim.SimulatedCloudControl;
import io.trainplane.local.sim.SimulatedNetwork;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.core.util.SdkAutoConstructList;
import software.amazon.awssdk.core.util.SdkAutoConstructMap;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.DeleteResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.GetResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.GetResourceRequestStatusRequest;
import software.amazon.awssdk.services.cloudcontrol.model.ListResourcesRequest;

/**
 * The Cloud Control API over HTTP for the cold-start benchmark, which moto_server does not serve:
 * the twin's {@link SimulatedCloudControl} (real clock, every call allowed) behind the JSON 1.0
 * protocol ({@code X-Amz-Target: CloudApiService.<Operation>}). Its subnets are the ones the
 * benchmark made in moto, so the functions' reads of them agree with EC2's.
 */
final class CloudControlEndpoint implements AutoCloseable {
    private final SimulatedCloudControl cloudControl;
    private final HttpServer server;
    private final java.util.concurrent.atomic.AtomicLong busy;

    CloudControlEndpoint(SimulatedNetwork network, java.util.concurrent.atomic.AtomicLong busy) throws IOException {
        this.busy = busy;
        Clock clock = Clock.systemUTC();
        cloudControl = new SimulatedCloudControl(new CallLog(), clock, new FaultPlan(), Authorizer.ALLOW_ALL)
                .reading(network, SimulatedCapacity.stack(clock.instant()));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::serve);
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            long start = System.nanoTime();
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            JsonNode body = Json.read(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            int status = 200;
            JsonNode answer;
            try {
                answer = toJson(call(target.substring(target.indexOf('.') + 1), body));
            } catch (AwsServiceException e) {
                status = e.statusCode();
                answer = Json.object()
                        .put("__type", e.awsErrorDetails().errorCode())
                        .put("Message", e.awsErrorDetails().errorMessage());
            }
            byte[] bytes = Json.write(answer).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().put("Content-Type", java.util.List.of("application/x-amz-json-1.0"));
            busy.addAndGet(System.nanoTime() - start);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private SdkPojo call(String operation, JsonNode body) {
        return switch (operation) {
            case "CreateResource" ->
                cloudControl.createResource((CreateResourceRequest) fromJson(body, CreateResourceRequest.builder()));
            case "GetResourceRequestStatus" ->
                cloudControl.getResourceRequestStatus(
                        (GetResourceRequestStatusRequest) fromJson(body, GetResourceRequestStatusRequest.builder()));
            case "GetResource" ->
                cloudControl.getResource((GetResourceRequest) fromJson(body, GetResourceRequest.builder()));
            case "DeleteResource" ->
                cloudControl.deleteResource((DeleteResourceRequest) fromJson(body, DeleteResourceRequest.builder()));
            case "ListResources" ->
                cloudControl.listResources((ListResourcesRequest) fromJson(body, ListResourcesRequest.builder()));
            default -> throw new IllegalArgumentException("the benchmark's Cloud Control does not serve " + operation);
        };
    }

    /** An SDK object as its JSON protocol writes it: members under their wire names, times in epoch seconds. */
    static JsonNode toJson(Object value) {
        return switch (value) {
            case SdkPojo pojo -> {
                ObjectNode out = Json.object();
                for (SdkField<?> field : pojo.sdkFields()) {
                    Object member = field.getValueOrDefault(pojo);
                    if (member != null
                            && !(member instanceof SdkAutoConstructList)
                            && !(member instanceof SdkAutoConstructMap)) {
                        out.set(field.locationName(), toJson(member));
                    }
                }
                yield out;
            }
            case Collection<?> list -> {
                ArrayNode out = Json.array();
                list.forEach(item -> out.add(toJson(item)));
                yield out;
            }
            case Map<?, ?> map -> {
                ObjectNode out = Json.object();
                map.forEach((k, v) -> out.set(k.toString(), toJson(v)));
                yield out;
            }
            case Instant instant -> Json.NODES.numberNode(BigDecimal.valueOf(instant.toEpochMilli(), 3));
            default -> Json.mapper().valueToTree(value);
        };
    }

    /** Sets the builder's members from their wire names in {@code json}; the object built. */
    static Object fromJson(JsonNode json, SdkPojo builder) {
        for (SdkField<?> field : builder.sdkFields()) {
            JsonNode member = json.get(field.locationName());
            if (member != null && !member.isNull()) {
                field.set(builder, value(member, field));
            }
        }
        return ((software.amazon.awssdk.utils.builder.SdkBuilder<?, ?>) builder).build();
    }

    private static Object value(JsonNode json, SdkField<?> field) {
        MarshallingType<?> type = field.marshallingType();
        if (type == MarshallingType.STRING) {
            return json.asText();
        } else if (type == MarshallingType.INTEGER) {
            return json.asInt();
        } else if (type == MarshallingType.LONG) {
            return json.asLong();
        } else if (type == MarshallingType.BOOLEAN) {
            return json.asBoolean();
        } else if (type == MarshallingType.INSTANT) {
            return Instant.ofEpochMilli(json.decimalValue().movePointRight(3).longValue());
        } else if (type == MarshallingType.SDK_POJO) {
            return fromJson(json, field.constructor().get());
        } else if (type == MarshallingType.LIST) {
            SdkField<?> member = field.getRequiredTrait(ListTrait.class).memberFieldInfo();
            java.util.List<Object> out = new java.util.ArrayList<>();
            json.forEach(item -> out.add(value(item, member)));
            return out;
        } else if (type == MarshallingType.MAP) {
            SdkField<?> member = field.getRequiredTrait(MapTrait.class).valueFieldInfo();
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            json.properties().forEach(e -> out.put(e.getKey(), value(e.getValue(), member)));
            return out;
        }
        throw new IllegalArgumentException("the benchmark's Cloud Control does not read " + type + " members");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
