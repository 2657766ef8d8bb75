package io.trainplane.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The EKS API of moto_server with one change: DescribeCluster reports the local Kubernetes API
 * server as the cluster's endpoint (moto makes up an unreachable {@code *.eks.amazonaws.com} one)
 * and no CA (the local server speaks plain HTTP). So the functions' real path, DescribeCluster →
 * fabric8 client, reaches a live API server without any seam in the production code.
 */
final class EksEndpointProxy implements AutoCloseable {
    private static final Pattern DESCRIBE_CLUSTER = Pattern.compile("^/clusters/[^/]+$");
    /** Headers java.net.http sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("host", "connection", "content-length", "expect", "upgrade");

    private final HttpServer server;
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI moto;
    private final String kubernetesEndpoint;

    EksEndpointProxy(URI moto, String kubernetesEndpoint) throws IOException {
        this.moto = moto;
        this.kubernetesEndpoint = kubernetesEndpoint;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::forward);
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            URI target = moto.resolve(exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null
                            ? ""
                            : "?" + exchange.getRequestURI().getRawQuery()));
            HttpRequest.Builder request = HttpRequest.newBuilder(target)
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!RESTRICTED.contains(name.toLowerCase())) {
                    values.forEach(v -> request.header(name, v));
                }
            });
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            byte[] answer = response.body();
            if (response.statusCode() == 200
                    && exchange.getRequestMethod().equals("GET")
                    && DESCRIBE_CLUSTER
                            .matcher(exchange.getRequestURI().getPath())
                            .matches()) {
                answer = rewrite(answer);
            }
            response.headers().map().forEach((name, values) -> {
                if (!RESTRICTED.contains(name.toLowerCase())
                        && !name.equalsIgnoreCase("transfer-encoding")
                        && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, List.copyOf(values));
                }
            });
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private byte[] rewrite(byte[] describeCluster) {
        JsonNode root = Json.read(new String(describeCluster, StandardCharsets.UTF_8));
        if (root.path("cluster") instanceof ObjectNode cluster) {
            cluster.put("endpoint", kubernetesEndpoint);
            cluster.remove("certificateAuthority");
        }
        return Json.write(root).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.stop(0);
        http.close();
    }
}
