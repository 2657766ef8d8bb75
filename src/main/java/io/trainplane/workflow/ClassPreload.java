package io.trainplane.workflow;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * SnapStart "class priming": the classes the first real invocations of an artifact's functions
 * still loaded after the rest of their priming (model types, exceptions, the steps' own code), read
 * from the list {@code snapstart/<artifact>.classes} in the jar and loaded before the snapshot, so
 * the invocation after a restore finds them (AWS's priming strategies:
 * https://aws.amazon.com/blogs/compute/optimizing-cold-start-performance-of-aws-lambda-using-advanced-priming-strategies-with-snapstart/).
 * One list per artifact, not per function: the functions of a jar load mostly the same classes, and
 * the Kubernetes jar has no room for twelve copies. A class another function needs costs the
 * snapshot a little memory, nothing at restore. Made by {@code ./bench/run class-lists}; a stale
 * list only primes less. Loaded, not initialized: no static initializer runs before the snapshot
 * that the invocation itself would not run.
 */
public final class ClassPreload {
    private ClassPreload() {}

    /** The list of an artifact's functions (each jar carries only its own). */
    public static String resource(LambdaArtifact artifact) {
        return "snapstart/" + artifact.name().toLowerCase(Locale.ROOT) + ".classes";
    }

    /** Set to make the lists: priming then loads none, so the list shows everything the invocation needs. */
    static final String SKIP_PROPERTY = "trainplane.snapstart.skipClassList";

    /** Loads the listed classes; how many loaded (a class this jar lacks is skipped, a missing list loads none). */
    static int load(String resource) {
        if (Boolean.getBoolean(SKIP_PROPERTY)) {
            return 0;
        }
        ClassLoader loader = ClassPreload.class.getClassLoader();
        int loaded = 0;
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                return 0;
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String name = lines.readLine(); name != null; name = lines.readLine()) {
                if (name.isBlank() || name.startsWith("#")) {
                    continue;
                }
                try {
                    Class.forName(name.strip(), false, loader);
                    loaded++;
                } catch (ClassNotFoundException | LinkageError notHere) {
                    // Not in this artifact (or not loadable ahead): the invocation loads what it needs.
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return loaded;
    }
}
