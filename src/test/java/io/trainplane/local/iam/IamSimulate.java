package io.trainplane.local.iam;

import io.trainplane.NpmPeer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The judge of the simulated account's IAM decisions: {@code @cloud-copilot/iam-simulate} (npm),
 * which carries AWS's Service Authorization Reference, run by {@code src/test/node/iam-replay/replay.mjs}
 * over audit logs.
 *
 * <pre>{@code
 * IamSimulate.Replay replay = IamSimulate.installed().replay(policiesJson, auditLog);
 * assertThat(replay.offenses()).isEmpty();
 * }</pre>
 *
 * {@link #installed()} installs the package once per build into {@code target/iam-replay} ({@link
 * NpmPeer}: {@code npm ci} from the committed lock file). Without node or npm, or without the npm
 * registry on a first install, the calling test is skipped with a message saying so, except when
 * the environment variable {@code CI} is {@code true}: there it fails, so that a CI build never
 * passes without the judge.
 */
public final class IamSimulate {
    private static final Pattern TOTALS =
            Pattern.compile("iam-simulate: (\\d+) calls, (\\d+) agree, (\\d+) disagree, (\\d+) malformed");
    private static final Pattern OFFENSE =
            Pattern.compile("(disagree|malformed) (.+?:\\d+)(?: \\((\\d+) identical calls\\))?: (.*)");
    private static final int REPLAY_SECONDS = 120;

    private static IamSimulate installed;

    private final NpmPeer peer;

    private IamSimulate(NpmPeer peer) {
        this.peer = peer;
    }

    /** What the replay found wrong with one distinct audit line. */
    public enum Kind {
        DISAGREE,
        MALFORMED
    }

    /**
     * One distinct offending request: where it first occurs ({@code audit.jsonl:12}), how many
     * identical lines the log holds, and the replay's line about it.
     */
    public record Offense(Kind kind, String location, int count, String text) {}

    /** The totals of one replay (lines, not distinct requests) and its offending requests. */
    public record Replay(int calls, int agree, int disagree, int malformed, List<Offense> offenses, String output) {
        public List<Offense> disagreements() {
            return offenses.stream().filter(o -> o.kind() == Kind.DISAGREE).toList();
        }

        public List<Offense> malformedRequests() {
            return offenses.stream().filter(o -> o.kind() == Kind.MALFORMED).toList();
        }

        /** The offense first found at {@code file:line}, e.g. {@code at("audit.jsonl", 12)}. */
        public Optional<Offense> at(String fileName, int line) {
            return offenses.stream()
                    .filter(o -> o.location().endsWith(fileName + ":" + line))
                    .findFirst();
        }
    }

    /** The replay, installed and ready; skips (or, on CI, fails) the calling test when it cannot be. */
    public static synchronized IamSimulate installed() throws IOException, InterruptedException {
        if (installed == null) {
            installed = new IamSimulate(NpmPeer.installed(
                    "iam-replay", List.of("replay.mjs"), "replay IAM audit logs through @cloud-copilot/iam-simulate"));
        }
        return installed;
    }

    /** Replays the audit logs against the policies file ({@code trainplane iam --output json}). */
    public Replay replay(Path policies, Path... auditLogs) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(policies.toAbsolutePath().toString()));
        for (Path log : auditLogs) {
            args.add(log.toAbsolutePath().toString());
        }
        NpmPeer.Run run = peer.node("replay.mjs", args, REPLAY_SECONDS);
        Matcher totals = TOTALS.matcher(run.output());
        if (run.status() > 1 || !totals.find()) {
            throw new IllegalStateException("replay.mjs failed (exit " + run.status() + "):\n" + run.output());
        }
        var offenses = new ArrayList<Offense>();
        for (String line : run.output().split("\n")) {
            Matcher offense = OFFENSE.matcher(line);
            if (offense.matches()) {
                offenses.add(new Offense(
                        Kind.valueOf(offense.group(1).toUpperCase()),
                        offense.group(2),
                        offense.group(3) == null ? 1 : Integer.parseInt(offense.group(3)),
                        offense.group(4)));
            }
        }
        var replay = new Replay(
                count(totals, 1),
                count(totals, 2),
                count(totals, 3),
                count(totals, 4),
                List.copyOf(offenses),
                run.output());
        if ((run.status() == 0) != (replay.disagree() + replay.malformed() == 0)) {
            throw new IllegalStateException(
                    "replay.mjs exited " + run.status() + " with these totals:\n" + run.output());
        }
        return replay;
    }

    private static int count(Matcher totals, int group) {
        return Integer.parseInt(totals.group(group));
    }
}
