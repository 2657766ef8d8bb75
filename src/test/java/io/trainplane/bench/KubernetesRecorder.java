package io.trainplane.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import io.trainplane.core.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The local Kubernetes API server as the measured functions reach it (EksEndpointProxy reports it
 * as the cluster's endpoint): every request passes through, and while {@link #recording()} it is
 * written down in arrival order with its {@link System#nanoTime()}, comparable with the AWS calls the
 * child process records (one machine, one monotonic clock), so that a function's baseline can make
 * the same requests in the same order.
 */
final class KubernetesRecorder extends EndpointFront {
    /**
     * One request as the API server received it, the status it answered, and the apiVersion and
     * kind of the object it was about (from the body sent or answered; empty when neither says).
     */
    record Request(
            long nanoTime,
            String method,
            String path,
            String query,
            String contentType,
            String body,
            int status,
            String apiVersion,
            String kind) {}

    private List<Request> recorded;

    KubernetesRecorder(String apiServer, AtomicLong busy) throws IOException {
        super(URI.create(apiServer), busy);
    }

    /** Starts writing requests down, forgetting any written before. */
    synchronized void record() {
        recorded = new ArrayList<>();
    }

    /** The requests since {@link #record()}, and stops writing them down. */
    synchronized List<Request> recording() {
        List<Request> requests = recorded == null ? List.of() : List.copyOf(recorded);
        recorded = null;
        return requests;
    }

    @Override
    synchronized void exchanged(long nanoTime, HttpExchange exchange, byte[] body, HttpResponse<byte[]> response) {
        if (recorded != null) {
            String[] type = typeOf(body, response.body());
            recorded.add(new Request(
                    nanoTime,
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath(),
                    exchange.getRequestURI().getRawQuery(),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    new String(body, StandardCharsets.UTF_8),
                    response.statusCode(),
                    type[0],
                    type[1]));
        }
    }

    /** The apiVersion and kind of the object sent, else of the one answered (a list's items' kind). */
    private static String[] typeOf(byte[] sent, byte[] answered) {
        for (byte[] body : List.of(sent, answered)) {
            try {
                JsonNode object = Json.read(new String(body, StandardCharsets.UTF_8));
                String kind = object.path("kind").asText("");
                if (!kind.isEmpty() && !kind.equals("Status")) {
                    return new String[] {
                        object.path("apiVersion").asText(""),
                        kind.endsWith("List") ? kind.substring(0, kind.length() - "List".length()) : kind
                    };
                }
            } catch (RuntimeException notAnObject) {
                // A log, an empty body: says nothing of the kind.
            }
        }
        return new String[] {"", ""};
    }
}
