package io.trainplane.workload;

import io.trainplane.Prerequisite;
import io.trainplane.local.process.PythonRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Python that can {@code import torch}, for tests that run the real workload: the one on PATH
 * (or {@code TRAINPLANE_PYTHON}) when it already has PyTorch, otherwise a venv under
 * {@code target/torch-venv} made from python3 and the CPU wheel on disk (reused when it works).
 * Skips the calling test, saying why, when neither is possible.
 */
public final class TorchEnvironment {
    static final Path VENV = Path.of("target", "torch-venv").toAbsolutePath();
    private static final List<Path> WHEEL_DIRS = List.of(
            Path.of("/opt/wheels"),
            Path.of("/opt"),
            Path.of(System.getProperty("user.home"), "wheels"),
            Path.of("/work/shared/wheels"),
            Path.of("/tmp"));
    private static PythonRuntime cached;

    private TorchEnvironment() {}

    public static synchronized PythonRuntime python() throws IOException, InterruptedException {
        if (cached != null) {
            return cached;
        }
        Optional<PythonRuntime> ready = PythonRuntime.detect(System.getenv());
        if (ready.isPresent()) {
            return cached = ready.get();
        }
        Path venvPython = VENV.resolve("bin/python");
        if (Files.isExecutable(venvPython) && PythonRuntime.canImportTorch(venvPython)) {
            return cached = new PythonRuntime(venvPython);
        }
        Optional<Path> python3 = PythonRuntime.onPath("python3", System.getenv());
        Prerequisite.require(
                python3.isPresent(),
                "no python3 on PATH: the real workload test needs Python 3.11 and a CPU PyTorch wheel");
        Optional<Path> wheel = wheel();
        Prerequisite.require(
                wheel.isPresent(),
                "no CPU PyTorch wheel (torch-*cpu*.whl) in $TRAINPLANE_TORCH_WHEEL or " + WHEEL_DIRS
                        + ": the real workload test needs one (pip install --no-deps into a venv)");
        run(List.of(python3.get().toString(), "-m", "venv", "--clear", "--system-site-packages", VENV.toString()));
        run(List.of(
                venvPython.toString(),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-deps",
                "--no-index",
                "--disable-pip-version-check",
                wheel.get().toString()));
        Prerequisite.require(
                PythonRuntime.canImportTorch(venvPython),
                "installed " + wheel.get() + " into " + VENV
                        + " but `import torch` fails there: its dependencies (numpy, typing_extensions, sympy, networkx,"
                        + " jinja2, fsspec, filelock) must come from the system site-packages of " + python3.get());
        return cached = new PythonRuntime(venvPython);
    }

    static Optional<Path> wheel() throws IOException {
        String explicit = System.getenv("TRAINPLANE_TORCH_WHEEL");
        if (explicit != null && Files.isRegularFile(Path.of(explicit))) {
            return Optional.of(Path.of(explicit));
        }
        for (Path dir : WHEEL_DIRS) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.find(dir, 2, (p, a) -> {
                String name = p.getFileName().toString();
                return a.isRegularFile() && name.startsWith("torch-") && name.contains("cpu") && name.endsWith(".whl");
            })) {
                Optional<Path> found = files.sorted().findFirst();
                if (found.isPresent()) {
                    return found;
                }
            } catch (java.io.UncheckedIOException e) {
                // an unreadable directory: look elsewhere
            }
        }
        return Optional.empty();
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(new ArrayList<>(command))
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
            Prerequisite.require(
                    false, "could not prepare the PyTorch venv (" + String.join(" ", command) + "): " + output);
        }
    }
}
