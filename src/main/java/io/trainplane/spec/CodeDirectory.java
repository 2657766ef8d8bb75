package io.trainplane.spec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A local directory as the workload's code ({@code workload.code}): checked and packed by the CLI,
 * which has the files; the run then carries a {@link CodePackage} and never the path.
 *
 * <p>Limits. {@value #MAX_BYTES_TEXT} in all ({@link #MAX_BYTES}): code, not data or weights
 * (data goes through data.s3Uri, a model through training.resumeFrom); every pod copies it at
 * start, so a bigger directory slows every start and restart, and it is almost always a data set or
 * a virtualenv left in the directory by mistake. A directory fits the ConfigMap route when its
 * files, as the ConfigMap holds them (text as is, other files base64 in binaryData), take at most
 * {@link #CONFIGMAP_BYTES} (a ConfigMap holds at most 1 MiB,
 * https://kubernetes.io/docs/concepts/configuration/configmap/, and its metadata needs room), it has
 * at most {@link #CONFIGMAP_FILES} files, and its packed form fits a DynamoDB item beside the run's
 * record ({@link #ARCHIVE_BYTES}; an item holds at most 400 KB,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html); else the
 * artifacts bucket route.
 */
public final class CodeDirectory {
    public static final long MAX_BYTES = 50L * 1024 * 1024;
    static final String MAX_BYTES_TEXT = "50 MiB";
    public static final int MAX_FILES = 10_000;
    public static final long CONFIGMAP_BYTES = 768L * 1024;
    public static final int CONFIGMAP_FILES = 100;
    public static final int ARCHIVE_BYTES = 350_000;

    /** Left out of the package: version control, caches, virtualenvs and the local run store. */
    public static final Set<String> SKIPPED =
            Set.of(".git", "__pycache__", ".venv", ".trainplane", ".ipynb_checkpoints");

    private static final String FIELD = "/workload/code";

    private CodeDirectory() {}

    /**
     * The checked files of {@code code}'s directory.
     *
     * @param files relative path ('/'-separated) → content, sorted by path
     */
    public record Packed(Path root, SortedMap<String, byte[]> files, long bytes, String sha256) {
        /** Whether a file is UTF-8 text (ConfigMap data) rather than binaryData. */
        public static boolean text(byte[] content) {
            try {
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(content));
                return true;
            } catch (CharacterCodingException e) {
                return false;
            }
        }

        /** The size of the files as a ConfigMap holds them: keys, text as is, other files in base64. */
        public long configMapBytes() {
            long total = 0;
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                int n = file.getValue().length;
                total += file.getKey().length() + (text(file.getValue()) ? n : 4L * ((n + 2) / 3));
            }
            return total;
        }

        /** The route this directory takes: the ConfigMap when it fits there, else the artifacts bucket. */
        public CodePackage.Route route() {
            return files.size() <= CONFIGMAP_FILES
                            && configMapBytes() <= CONFIGMAP_BYTES
                            && archive(files).length <= ARCHIVE_BYTES
                    ? CodePackage.Route.CONFIGMAP
                    : CodePackage.Route.BUCKET;
        }

        /** What the run carries: the route, the files (ConfigMap route), size and digest; {@code s3Uri} for the bucket route. */
        public CodePackage describe(String s3Uri) {
            CodePackage.Route route = route();
            return route == CodePackage.Route.CONFIGMAP
                    ? new CodePackage(route, List.copyOf(files.keySet()), bytes, sha256, null)
                    : new CodePackage(route, List.of(), bytes, sha256, s3Uri);
        }
    }

    /** Where the directory is: {@code code.path()} against the spec file's directory, unless absolute. */
    public static Path resolve(WorkloadCode.Directory code, Path specDirectory) {
        Path given = Path.of(code.path());
        return (given.isAbsolute() ? given : specDirectory.resolve(given)).normalize();
    }

    /**
     * Checks and reads the directory; refuses (with the field and the fix) a directory that is
     * missing, not a directory, empty, too large, or whose links lead out of it.
     */
    public static Packed pack(WorkloadCode.Directory code, Path specDirectory) {
        Path dir = resolve(code, specDirectory);
        String named = "\"" + code.path() + "\"" + (Path.of(code.path()).isAbsolute() ? "" : " (" + dir + ")");
        if (!Files.exists(dir)) {
            throw refused(
                    named + " does not exist: a workload.code other than \"builtin\", \"image\" or an s3:// prefix"
                            + " is a local directory, relative to the spec file's directory",
                    "give the directory that holds your training script (e.g. \".\" for the spec's own directory),"
                            + " \"image\" when your image has the code, or an s3:// prefix");
        }
        if (!Files.isDirectory(dir)) {
            throw refused(
                    named + " is a file, not a directory: the whole directory is shipped, and commands name the"
                            + " script",
                    "give its directory (\"" + parentOf(code.path()) + "\") and run the file with commands.train,"
                            + " e.g. [\"python\", \"" + dir.getFileName() + "\"]");
        }
        Path root;
        try {
            root = dir.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SortedMap<String, byte[]> files = new TreeMap<>();
        List<SpecProblem> problems = new ArrayList<>();
        long[] total = {0};
        try {
            Files.walkFileTree(
                    root, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE, new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                            if (!d.equals(root)
                                    && SKIPPED.contains(d.getFileName().toString())) {
                                return FileVisitResult.SKIP_SUBTREE;
                            }
                            return outside(d) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                            if (file.getFileName().toString().endsWith(".pyc") || outside(file)) {
                                return FileVisitResult.CONTINUE;
                            }
                            if (!attrs.isRegularFile()) {
                                return FileVisitResult.CONTINUE;
                            }
                            if (relative(file).chars().anyMatch(Character::isISOControl)) {
                                // fetch-code digests the copy line by line: a name with a line break would not match.
                                problems.add(new SpecProblem(
                                        FIELD,
                                        "\"" + relative(file).replaceAll("\\p{Cntrl}", "?") + "\" in " + named
                                                + " has a control character (a line break, a tab) in its name",
                                        "rename the file"));
                                return FileVisitResult.CONTINUE;
                            }
                            total[0] += attrs.size();
                            if (total[0] > MAX_BYTES || files.size() >= MAX_FILES) {
                                throw new TooLarge();
                            }
                            files.put(relative(file), Files.readAllBytes(file));
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                            if (e instanceof FileSystemLoopException) {
                                problems.add(new SpecProblem(
                                        FIELD,
                                        "\"" + relative(file) + "\" in " + named
                                                + " is a link to a directory that contains it" + " (a loop)",
                                        "remove the link, or copy what it names into the directory"));
                                return FileVisitResult.SKIP_SUBTREE;
                            }
                            throw e;
                        }

                        /** A link whose target is not under the directory: the pods would not have it. */
                        private boolean outside(Path path) throws IOException {
                            if (path.toRealPath().startsWith(root)) {
                                return false;
                            }
                            problems.add(new SpecProblem(
                                    FIELD,
                                    "\"" + relative(path) + "\" in " + named + " is a link to " + path.toRealPath()
                                            + ", outside the directory: only the directory is shipped, so the pods would not"
                                            + " have it",
                                    "copy what it names into the directory, or remove the link"));
                            return true;
                        }

                        private String relative(Path path) {
                            return root.relativize(path).toString().replace('\\', '/');
                        }
                    });
        } catch (TooLarge e) {
            throw refused(
                    named + " holds more than " + MAX_BYTES_TEXT + " or " + MAX_FILES + " files (without "
                            + String.join(", ", SKIPPED.stream().sorted().toList())
                            + " and *.pyc): too large to ship as code with every run; data sets and weights do not"
                            + " belong in it",
                    "move data into data.s3Uri (or data.url) and models out of the directory, or build the code into"
                            + " an image and use \"code\": \"image\"");
        } catch (IOException e) {
            throw refused(
                    named + " could not be read: " + e.getMessage(),
                    "make the directory and its files readable, or give another directory");
        }
        if (!problems.isEmpty()) {
            throw new InvalidSpecException(problems);
        }
        if (files.isEmpty()) {
            throw refused(
                    named + " has no files: there is no code to ship",
                    "put your training script in it, or run `trainplane init " + code.path() + "` for a starter");
        }
        return new Packed(root, files, total[0], digest(files));
    }

    /**
     * SHA-256 over each file's path, a NUL, its size in decimal, a NUL and its content, in path
     * order; fetch-code computes the same in the pod with find, sort and sha256sum.
     */
    public static String digest(SortedMap<String, byte[]> files) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                sha.update(file.getKey().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
                sha.update(Long.toString(file.getValue().length).getBytes(StandardCharsets.US_ASCII));
                sha.update((byte) 0);
                sha.update(file.getValue());
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The files as one gzip'd byte string (path, size, content each): the ConfigMap route's package. */
    public static byte[] archive(SortedMap<String, byte[]> files) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(new GZIPOutputStream(bytes))) {
            out.writeInt(files.size());
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                out.writeUTF(file.getKey());
                out.writeInt(file.getValue().length);
                out.write(file.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The files of an {@link #archive}. */
    public static SortedMap<String, byte[]> unarchive(byte[] archive) {
        SortedMap<String, byte[]> files = new TreeMap<>();
        try (DataInputStream in = new DataInputStream(new GZIPInputStream(new ByteArrayInputStream(archive)))) {
            int count = in.readInt();
            for (int i = 0; i < count; i++) {
                String path = in.readUTF();
                files.put(path, in.readNBytes(in.readInt()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static String parentOf(String path) {
        Path parent = Path.of(path).getParent();
        return parent == null ? "." : parent.toString();
    }

    private static InvalidSpecException refused(String message, String hint) {
        return new InvalidSpecException(new SpecProblem(FIELD, message, hint));
    }

    /** Thrown out of the walk at the first file past the limits. */
    private static final class TooLarge extends IOException {
        TooLarge() {
            super("too large");
        }
    }
}
