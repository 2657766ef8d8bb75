package io.trainplane.kubernetes;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The user's own exception in a training or evaluation log: the last Python traceback that is not
 * torchrun's. When a worker fails, its traceback goes to the pod's log first; then torchrun's elastic
 * agent, out of restarts, raises {@code ChildFailedError} with its own traceback and a summary of the
 * failed ranks (whose {@code traceback :} field says only "To enable traceback see" unless the entry
 * point is decorated with {@code @record},
 * https://pytorch.org/docs/stable/elastic/errors.html). That last traceback is torchrun's, not the
 * cause: the one before it is.
 *
 * @param exception the exception's line, e.g. {@code ModuleNotFoundError: No module named 'x'}
 * @param frame where it was raised, from the last frame: {@code /workload/train.py:5 in main}, or null
 * @param text the whole traceback, its exception line last
 */
public record UserTraceback(String exception, String frame, String text) {
    static final String START = "Traceback (most recent call last):";
    /** torchrun's {@code --tee}/{@code --local-ranks-filter} put {@code [default0]:} or {@code [rank0]:} before a line. */
    private static final Pattern RANK_PREFIX = Pattern.compile("^\\[[A-Za-z]*\\d+\\]:");
    /** The launcher's own modules: torchrun's entry point and the agent it runs. */
    private static final List<String> LAUNCHER_FILES =
            List.of("/torch/distributed/run.py", "/torch/distributed/launcher/");

    private static final String LAUNCHER_EXCEPTIONS = "torch.distributed.elastic.";

    /** A traceback's last line: the exception's qualified name, then its message after ": ". */
    private static final Pattern EXCEPTION = Pattern.compile("^[A-Za-z_][A-Za-z0-9_.]*(:.*)?$");

    private static final Pattern FRAME = Pattern.compile("^\\s*File \"(.*)\", line (\\d+), in (.*)$");

    /** The last traceback of {@code log} that is not torchrun's; empty when there is none. */
    public static Optional<UserTraceback> in(String log) {
        if (log == null || !log.contains(START)) {
            return Optional.empty();
        }
        List<String> lines = log.lines().map(UserTraceback::withoutRankPrefix).toList();
        UserTraceback found = null;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).equals(START)) {
                UserTraceback t = at(lines, i);
                if (t != null && !launchers(t)) {
                    found = t;
                }
            }
        }
        return Optional.ofNullable(found);
    }

    /** The exception line and where it was raised, as one line a person reads first. */
    public String summary() {
        return frame == null ? exception : exception + " (at " + frame + ")";
    }

    /** The traceback that starts at {@code start}: indented frame lines, then the exception's line. */
    private static UserTraceback at(List<String> lines, int start) {
        List<String> body = new ArrayList<>(List.of(lines.get(start)));
        String frame = null;
        for (int i = start + 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.equals(START)
                    || (!line.startsWith(" ")
                            && !line.isBlank()
                            && !EXCEPTION.matcher(line).matches())) {
                // Another process's lines among these: ranks that fail together write to the same
                // log at once, and a line may lose its indent to the other's.
                continue;
            }
            body.add(line);
            if (line.startsWith(" ")) {
                Matcher m = FRAME.matcher(line);
                if (m.matches()) {
                    frame = m.group(1) + ":" + m.group(2) + " in " + m.group(3);
                }
                continue;
            }
            return line.isBlank() ? null : new UserTraceback(line.strip(), frame, String.join("\n", body));
        }
        return null;
    }

    private static boolean launchers(UserTraceback t) {
        return t.exception.startsWith(LAUNCHER_EXCEPTIONS)
                || t.text.lines().filter(l -> l.startsWith("  File ")).anyMatch(l -> LAUNCHER_FILES.stream()
                        .anyMatch(l::contains));
    }

    private static String withoutRankPrefix(String line) {
        Matcher m = RANK_PREFIX.matcher(line);
        return m.find() ? line.substring(m.end()) : line;
    }
}
