package io.trainplane.kubernetes;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A container command run under a shell that turns the kubelet's SIGTERM into exit 143 (128 + 15).
 *
 * <p>The training operator's {@code restartPolicy: ExitCode} retries a replica that ended with
 * 128-255 and fails the job on 1-127
 * (https://www.kubeflow.org/docs/components/trainer/legacy-v1/user-guides/pytorch/). torchrun
 * itself ends with 1 when signalled (its elastic agent raises SignalException), so a pod stopped
 * by a spot interruption's node shutdown would read as the user's code failing. The shell passes
 * the signal on, waits while the training checkpoints, and exits 143; any other exit is torchrun's.
 */
public final class TermExit {
    /** The exit of a container this shell stopped on SIGTERM. */
    public static final int EXIT_CODE = 143;

    private static final String SHELL = "/bin/sh";
    // "$0" "$@": the wrapped command, as given after the script. Started before the trap so that
    // $pid is set when it fires; a SIGTERM before that ends the shell by the signal: 143 as well.
    static final String SCRIPT =
            "\"$0\" \"$@\" & pid=$!; trap 'kill -TERM \"$pid\"; wait \"$pid\"; exit 143' TERM; wait \"$pid\"";

    private TermExit() {}

    /** {@code command} under the shell. */
    public static List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of(SHELL, "-c", SCRIPT));
        wrapped.addAll(command);
        return wrapped;
    }

    /** The command {@link #wrap} was given, when {@code command} is one it made. */
    public static Optional<List<String>> unwrap(List<String> command) {
        if (command == null
                || command.size() < 4
                || !command.get(0).equals(SHELL)
                || !command.get(1).equals("-c")
                || !command.get(2).equals(SCRIPT)) {
            return Optional.empty();
        }
        return Optional.of(List.copyOf(command.subList(3, command.size())));
    }
}
