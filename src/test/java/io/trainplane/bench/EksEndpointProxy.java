package io.trainplane.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.trainplane.core.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The EKS API of moto_server with one change: DescribeCluster reports the local Kubernetes API
 * server as the cluster's endpoint (moto makes up an unreachable {@code *.eks.amazonaws.com} one)
 * and no CA (the local server speaks plain HTTP). So the functions' real path, DescribeCluster →
 * fabric8 client, reaches a live API server without any seam in the production code.
 */
final class EksEndpointProxy extends EndpointFront {
    private static final Pattern DESCRIBE_CLUSTER = Pattern.compile("^/clusters/[^/]+$");

    private final String kubernetesEndpoint;

    EksEndpointProxy(URI moto, String kubernetesEndpoint, AtomicLong busy) throws IOException {
        super(moto, busy);
        this.kubernetesEndpoint = kubernetesEndpoint;
    }

    @Override
    byte[] answer(HttpExchange exchange, HttpResponse<byte[]> response) {
        if (response.statusCode() == 200
                && exchange.getRequestMethod().equals("GET")
                && DESCRIBE_CLUSTER.matcher(exchange.getRequestURI().getPath()).matches()) {
            JsonNode root = Json.read(new String(response.body(), StandardCharsets.UTF_8));
            if (root.path("cluster") instanceof ObjectNode cluster) {
                cluster.put("endpoint", kubernetesEndpoint);
                cluster.remove("certificateAuthority");
            }
            return Json.write(root).getBytes(StandardCharsets.UTF_8);
        }
        return response.body();
    }
}
