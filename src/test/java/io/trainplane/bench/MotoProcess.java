package io.trainplane.bench;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code moto_server}, an AWS-compatible peer, as a child process on a free local port: the
 * cold-start benchmark's AWS and the tests' (through their MotoServer extension). Stopping it also
 * stops what a PATH wrapper (a pyenv shim) started, and so does the JVM's exit (Ctrl-C).
 */
public final class MotoProcess implements AutoCloseable {
    public static final String EXECUTABLE = "moto_server";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final Path log;
    private final URI endpoint;
    private final Thread stopAtExit;

    private MotoProcess(Process process, Path log, URI endpoint) {
        this.process = process;
        this.log = log;
        this.endpoint = endpoint;
        this.stopAtExit = new Thread(this::stop);
        Runtime.getRuntime().addShutdownHook(stopAtExit);
    }

    /** {@code moto_server} on the PATH, if it is there. */
    public static Optional<Path> executable() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = dir.isEmpty() ? null : Path.of(dir, EXECUTABLE);
            if (candidate != null && Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Starts it and returns once its port answers; fails with its output when it does not start. */
    public static MotoProcess start(Path executable) throws IOException, InterruptedException {
        int port = freePort();
        Path log = Files.createTempFile("moto-server-", ".log");
        Process process = new ProcessBuilder(executable.toString(), "-H", "127.0.0.1", "-p", Integer.toString(port))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        MotoProcess moto = new MotoProcess(process, log, URI.create("http://127.0.0.1:" + port));
        try {
            moto.awaitPort(port);
        } catch (IOException | InterruptedException | RuntimeException e) {
            moto.close();
            throw e;
        }
        return moto;
    }

    /** Where it listens, e.g. {@code http://127.0.0.1:40123}. */
    public URI endpoint() {
        return endpoint;
    }

    @Override
    public void close() throws IOException {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException exiting) {
            // Closed by the shutdown itself: the hook runs anyway.
        }
        Files.deleteIfExists(log);
    }

    private void stop() {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                children.forEach(ProcessHandle::destroyForcibly);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    private void awaitPort(int port) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("moto_server exited with " + process.exitValue()
                        + " before answering on port " + port + ":\n" + Files.readString(log));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("moto_server did not answer on port " + port + " within " + START_TIMEOUT
                + ":\n" + Files.readString(log));
    }
}
