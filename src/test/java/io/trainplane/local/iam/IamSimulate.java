package io.trainplane.local.iam;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

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
 * {@link #installed()} finds {@code node} and {@code npm} on the PATH and installs the package once
 * per build into {@code target/iam-replay} ({@code npm ci} from the committed lock file; skipped when
 * the installed lock file is the committed one). Without node or npm, or without the npm registry
 * on a first install, the calling test is skipped with a message saying so, except when the
 * environment variable {@code CI} is {@code true}: there it fails, so that a CI build never passes
 * without the judge.
 */
public final class IamSimulate {
    static final Path SOURCE = Path.of("src/test/node/iam-replay");
    static final Path INSTALL = Path.of("target/iam-replay");
    private static final List<String> FILES = List.of("package.json", "package-lock.json", "replay.mjs");
    /** Written into node_modules after a successful install: the digest of what was installed. */
    private static final String STAMP = ".trainplane-installed";

    private static final Pattern TOTALS =
            Pattern.compile("iam-simulate: (\\d+) calls, (\\d+) agree, (\\d+) disagree, (\\d+) malformed");
    private static final Pattern OFFENSE =
            Pattern.compile("(disagree|malformed) (.+?:\\d+)(?: \\((\\d+) identical calls\\))?: (.*)");
    /** npm's codes for a registry it cannot reach. */
    private static final Pattern OFFLINE = Pattern.compile("ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH");

    private static final int INSTALL_SECONDS = 300;
    private static final int REPLAY_SECONDS = 120;

    private static IamSimulate installed;

    private final Path node;
    private final Path dir;

    private IamSimulate(Path node, Path dir) {
        this.node = node;
        this.dir = dir;
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
            Optional<Path> node = onPath("node");
            Optional<Path> npm = onPath("npm");
            if (node.isEmpty() || npm.isEmpty()) {
                unavailable((node.isEmpty() ? "node" : "npm")
                        + " is not on the PATH: install Node.js 18 or later (with npm)"
                        + " to replay IAM audit logs through @cloud-copilot/iam-simulate");
            }
            install(npm.get());
            installed = new IamSimulate(node.get(), INSTALL.toAbsolutePath());
        }
        return installed;
    }

    /** Replays the audit logs against the policies file ({@code trainplane iam --output json}). */
    public Replay replay(Path policies, Path... auditLogs) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(
                List.of(node.toString(), "replay.mjs", policies.toAbsolutePath().toString()));
        for (Path log : auditLogs) {
            command.add(log.toAbsolutePath().toString());
        }
        Run run = run(dir, command, REPLAY_SECONDS);
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

    /** Copies the package into target/iam-replay and runs npm ci there unless it is installed already. */
    private static void install(Path npm) throws IOException, InterruptedException {
        Files.createDirectories(INSTALL);
        // Two forked JVMs of one build may get here together: one installs, the other waits.
        try (FileChannel lockFile = FileChannel.open(
                        INSTALL.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock ignored = lockFile.lock()) {
            for (String file : FILES) {
                Files.copy(SOURCE.resolve(file), INSTALL.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
            String digest = digest(SOURCE.resolve("package.json"), SOURCE.resolve("package-lock.json"));
            Path stamp = INSTALL.resolve("node_modules").resolve(STAMP);
            if (Files.isRegularFile(stamp) && Files.readString(stamp).equals(digest)) {
                return;
            }
            Run ci = run(
                    INSTALL.toAbsolutePath(),
                    List.of(npm.toString(), "ci", "--no-audit", "--no-fund"),
                    INSTALL_SECONDS);
            if (ci.status() != 0) {
                String why = "npm ci in " + INSTALL + " failed (exit " + ci.status() + "):\n" + ci.output();
                if (OFFLINE.matcher(ci.output()).find()) {
                    unavailable("the npm registry is unreachable, so @cloud-copilot/iam-simulate cannot be installed: "
                            + why);
                }
                throw new IllegalStateException(why);
            }
            Files.writeString(stamp, digest);
        }
    }

    /** Skips the calling test, or fails it on CI (CI=true), where the judge must run. */
    private static void unavailable(String why) {
        if ("true".equals(System.getenv("CI"))) {
            Assertions.fail(why + " (CI=true: the IAM replay may not be skipped)");
        }
        Assumptions.abort(why);
    }

    static Optional<Path> onPath(String executable) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = dir.isEmpty() ? null : Path.of(dir, executable);
            if (candidate != null && Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static String digest(Path... files) throws IOException {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Path file : files) {
                sha.update(Files.readAllBytes(file));
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Run(int status, String output) {}

    /** Runs a command in {@code dir}; stdout and stderr together, as the user would see them. */
    private static Run run(Path dir, List<String> command, int seconds) throws IOException, InterruptedException {
        Path output = Files.createTempFile("iam-replay-", ".out");
        try {
            Process process = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in " + seconds + " s:\n"
                        + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Run(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
