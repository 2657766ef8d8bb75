package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the twin knows of the files in a stock image, so that a command naming a script the image
 * does not have fails locally as it would on EKS. Known: the official PyTorch images
 * ({@code pytorch/pytorch:*}, https://hub.docker.com/r/pytorch/pytorch), whose Dockerfile
 * (https://github.com/pytorch/pytorch/blob/main/Dockerfile) installs conda under /opt/conda and
 * sets WORKDIR /workspace, which it leaves empty: a script elsewhere (e.g. /app/train.py) exists only
 * on a volume the pod mounts. Any other image (yours, in ECR) is taken to have what its commands
 * name: the twin cannot look inside it.
 */
final class StockImages {
    /** How long python takes to find that its script is missing. */
    static final Duration MISSING_SCRIPT = Duration.ofSeconds(2);

    private static final Set<String> PYTHONS = Set.of("python", "python3");

    private StockImages() {}

    static boolean known(String image) {
        return image != null
                && (image.startsWith("pytorch/pytorch:") || image.startsWith("docker.io/pytorch/pytorch:"));
    }

    /**
     * The outcome of a container of a known stock image whose python script (of {@code python
     * SCRIPT}, or {@code torchrun [flags] [--no-python python] SCRIPT}) is in no volume it mounts:
     * python's own words and exit code 2 ("can't open file … [Errno 2]"), or torchrun's exit 1 when
     * it launched the process that failed.
     */
    static Optional<PodBehaviour.Outcome> missingScript(Container container) {
        if (!known(container.getImage()) || container.getCommand() == null) {
            return Optional.empty();
        }
        List<String> command = container.getCommand();
        String program = name(command.getFirst());
        boolean torchrun = program.equals("torchrun");
        int at = 1;
        if (torchrun) {
            while (at < command.size() && command.get(at).startsWith("-")) {
                String option = command.get(at++);
                boolean takesValue = !option.contains("=")
                        && !Set.of("--no-python", "--no_python", "--standalone", "-m", "--module")
                                .contains(option);
                if (takesValue) {
                    at++;
                }
            }
            if (at < command.size() && PYTHONS.contains(name(command.get(at)))) {
                at++;
            }
        } else if (!PYTHONS.contains(program)) {
            return Optional.empty();
        }
        if (at >= command.size() || command.get(at).startsWith("-")) {
            return Optional.empty();
        }
        String script = command.get(at);
        String workingDir = container.getWorkingDir() == null ? "/workspace" : container.getWorkingDir();
        String path = script.startsWith("/") ? script : workingDir + "/" + script;
        boolean mounted = container.getVolumeMounts() != null
                && container.getVolumeMounts().stream()
                        .map(VolumeMount::getMountPath)
                        .anyMatch(m -> path.startsWith(m.endsWith("/") ? m : m + "/"));
        if (mounted || path.startsWith("/opt/conda/")) {
            return Optional.empty();
        }
        String said = "python: can't open file '" + path + "': [Errno 2] No such file or directory";
        return Optional.of(new PodBehaviour.Outcome(
                MISSING_SCRIPT,
                torchrun ? 1 : 2,
                torchrun ? said + "\ntorch.distributed.elastic.multiprocessing.errors.ChildFailedError" : said));
    }

    private static String name(String program) {
        return program.substring(program.lastIndexOf('/') + 1);
    }
}
