package io.trainplane.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A local endpoint as the measured functions reach it: a loopback HTTP server that passes every
 * request to {@code target} and adds the time the target took to answer to {@code busy}, so that
 * the benchmark can tell a function's own time from the time it waited for its endpoints.
 * Subclasses see each exchange ({@link #exchanged}) and may change the answer ({@link #answer}).
 */
class EndpointFront implements AutoCloseable {
    /** Headers java.net.http sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("host", "connection", "content-length", "expect", "upgrade");

    private final HttpServer server;
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private final URI target;
    private final AtomicLong busy;

    EndpointFront(URI target, AtomicLong busy) throws IOException {
        this.target = target;
        this.busy = busy;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::forward);
        server.setExecutor(handlers);
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** A request passed and answered; {@code nanoTime} when it arrived. */
    void exchanged(long nanoTime, HttpExchange exchange, byte[] body, HttpResponse<byte[]> response) {}

    /** The body to answer with: the target's. */
    byte[] answer(HttpExchange exchange, HttpResponse<byte[]> response) {
        return response.body();
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            long start = System.nanoTime();
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request = HttpRequest.newBuilder(
                            target.resolve(exchange.getRequestURI().getRawPath()
                                    + (exchange.getRequestURI().getRawQuery() == null
                                            ? ""
                                            : "?" + exchange.getRequestURI().getRawQuery())))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!RESTRICTED.contains(name.toLowerCase())) {
                    values.forEach(v -> request.header(name, v));
                }
            });
            HttpResponse<byte[]> response;
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            exchanged(start, exchange, body, response);
            byte[] answer = answer(exchange, response);
            response.headers().map().forEach((name, values) -> {
                if (!RESTRICTED.contains(name.toLowerCase())
                        && !name.equalsIgnoreCase("transfer-encoding")
                        && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, List.copyOf(values));
                }
            });
            busy.addAndGet(System.nanoTime() - start);
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        }
    }

    @Override
    public void close() {
        // Not close(): it waits for requests in flight, and a watch through the front never ends.
        server.stop(0);
        http.shutdownNow();
        handlers.shutdownNow();
    }
}
