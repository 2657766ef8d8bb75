package io.trainplane.local.process;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A Python interpreter that can {@code import torch}: what the process runtime runs the pods'
 * commands with. {@code torchrun} is started as {@code python -m torch.distributed.run}, so only
 * the interpreter has to be found.
 */
public record PythonRuntime(Path python) {
    /** Names the interpreter explicitly; otherwise python3, then python, on PATH. */
    public static final String PYTHON_VARIABLE = "TRAINPLANE_PYTHON";

    /** Where none was found: $TRAINPLANE_PYTHON, else python3 or python on PATH. */
    public static final String WHERE_LOOKED = "$" + PYTHON_VARIABLE + ", or python3/python on the PATH";

    /**
     * How to get one: PyTorch's CPU wheels from its own index
     * (https://pytorch.org/get-started/locally/, "Compute Platform: CPU", pip).
     */
    public static final String HOW_TO_GET = "python3 -m venv torch-venv && torch-venv/bin/pip install torch"
            + " --index-url https://download.pytorch.org/whl/cpu, then export " + PYTHON_VARIABLE
            + "=$PWD/torch-venv/bin/python";

    /** The interpreter of {@code TRAINPLANE_PYTHON}, or the first python3/python on PATH, when it can import torch. */
    public static Optional<PythonRuntime> detect(Map<String, String> env) {
        String explicit = env.get(PYTHON_VARIABLE);
        List<Optional<Path>> candidates = explicit != null && !explicit.isBlank()
                // Absolute: the pods' processes run in their own working directories.
                ? List.of(Optional.of(Path.of(explicit).toAbsolutePath())
                        .filter(Files::isExecutable)
                        .or(() -> onPath(explicit, env)))
                : List.of(onPath("python3", env), onPath("python", env));
        for (Optional<Path> candidate : candidates) {
            if (candidate.isPresent() && canImportTorch(candidate.get())) {
                return Optional.of(new PythonRuntime(candidate.get()));
            }
        }
        return Optional.empty();
    }

    public static Optional<Path> onPath(String name, Map<String, String> env) {
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    public static boolean canImportTorch(Path python) {
        try {
            Process process = new ProcessBuilder(python.toString(), "-c", "import torch, numpy, torch.distributed")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The command that starts torchrun with this interpreter. */
    public List<String> torchrun() {
        return List.of(python.toString(), "-m", "torch.distributed.run");
    }
}
