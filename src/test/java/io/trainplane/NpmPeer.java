package io.trainplane;

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
import java.util.regex.Pattern;

/**
 * An npm package under {@code src/test/node/<name>} that judges what the project makes (the npm
 * peers, DESIGN.md §10), installed once per build into {@code target/<name>} by {@code npm ci}
 * from its committed lock file (skipped when the installed lock file is the committed one) and
 * run with {@code node}.
 *
 * <p>Without node or npm on the PATH, or without the npm registry on a first install, the calling
 * test is skipped with a message saying so, except when the environment variable {@code CI} is
 * {@code true}: there it fails, so that a CI build never passes without the judge. Used by
 * {@code local.iam.IamSimulate} (iam-replay) and {@code kubernetes.KubernetesModels} (kubernetes-models).
 */
public final class NpmPeer {
    /** Written into node_modules after a successful install: the digest of what was installed. */
    private static final String STAMP = ".trainplane-installed";
    /** npm's codes for a registry it cannot reach. */
    private static final Pattern OFFLINE = Pattern.compile("ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH");

    private static final int INSTALL_SECONDS = 300;

    private final Path node;
    private final Path dir;

    private NpmPeer(Path node, Path dir) {
        this.node = node;
        this.dir = dir;
    }

    /** What one run of the peer's script printed (stdout and stderr together) and its exit status. */
    public record Run(int status, String output) {}

    /**
     * The peer {@code src/test/node/<name>} with its {@code files} (package.json and
     * package-lock.json are always copied), installed and ready; {@code judge} names what the peer
     * does, for the message of a skipped test. Skips (or, on CI, fails) the calling test when it
     * cannot be installed.
     */
    public static synchronized NpmPeer installed(String name, List<String> files, String judge)
            throws IOException, InterruptedException {
        Optional<Path> node = onPath("node");
        Optional<Path> npm = onPath("npm");
        if (node.isEmpty() || npm.isEmpty()) {
            unavailable((node.isEmpty() ? "node" : "npm")
                    + " is not on the PATH: install Node.js 18 or later (with npm) to " + judge);
        }
        Path install = Path.of("target", name);
        install(npm.get(), Path.of("src/test/node", name), install, files, judge);
        return new NpmPeer(node.get(), install.toAbsolutePath());
    }

    /** Runs {@code node script args...} in the installed package's folder. */
    public Run node(String script, List<String> args, int seconds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(node.toString(), script));
        command.addAll(args);
        return run(dir, command, seconds);
    }

    private static void install(Path npm, Path source, Path install, List<String> files, String judge)
            throws IOException, InterruptedException {
        Files.createDirectories(install);
        // Two forked JVMs of one build may get here together: one installs, the other waits.
        try (FileChannel lockFile = FileChannel.open(
                        install.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock ignored = lockFile.lock()) {
            List<String> all = new ArrayList<>(List.of("package.json", "package-lock.json"));
            all.addAll(files);
            for (String file : all) {
                Files.copy(source.resolve(file), install.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
            String digest = digest(source.resolve("package.json"), source.resolve("package-lock.json"));
            Path stamp = install.resolve("node_modules").resolve(STAMP);
            if (Files.isRegularFile(stamp) && Files.readString(stamp).equals(digest)) {
                return;
            }
            Run ci = run(
                    install.toAbsolutePath(),
                    List.of(npm.toString(), "ci", "--no-audit", "--no-fund"),
                    INSTALL_SECONDS);
            if (ci.status() != 0) {
                String why = "npm ci in " + install + " failed (exit " + ci.status() + "):\n" + ci.output();
                if (OFFLINE.matcher(ci.output()).find()) {
                    unavailable("the npm registry is unreachable, so the package to " + judge + " cannot be installed: "
                            + why);
                }
                throw new IllegalStateException(why);
            }
            Files.writeString(stamp, digest);
        }
    }

    /** Skips the calling test, or fails it on CI (CI=true), where the judges must run. */
    public static void unavailable(String why) {
        throw Prerequisite.missing(why);
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

    /** Runs a command in {@code dir}; stdout and stderr together, as the user would see them. */
    private static Run run(Path dir, List<String> command, int seconds) throws IOException, InterruptedException {
        Path output = Files.createTempFile("npm-peer-", ".out");
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
