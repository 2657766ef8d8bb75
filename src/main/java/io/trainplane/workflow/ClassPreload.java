package io.trainplane.workflow;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * SnapStart "class priming": the classes a function's first real invocation still loaded after the
 * rest of its priming (its model types, its exceptions, its own step code), read from the list
 * {@code snapstart/<Function>.classes} in its jar and loaded before the snapshot, so the invocation
 * after a restore finds them (AWS's priming strategies:
 * https://aws.amazon.com/blogs/compute/optimizing-cold-start-performance-of-aws-lambda-using-advanced-priming-strategies-with-snapstart/).
 * The lists are made by {@code ./bench/run class-lists} from a primed invocation of each function;
 * a stale list only primes less. Loaded, not initialized: no static initializer runs before the
 * snapshot that the invocation itself would not run.
 */
final class ClassPreload {
    private ClassPreload() {}

    /** The list's resource name for a function. */
    static String resource(String function) {
        return "snapstart/" + function + ".classes";
    }

    /** Set to make the lists: priming then loads none, so the list shows everything the invocation needs. */
    static final String SKIP_PROPERTY = "trainplane.snapstart.skipClassList";

    /** Loads the function's listed classes; how many loaded (a class this jar lacks is skipped). */
    static int load(String function) {
        if (Boolean.getBoolean(SKIP_PROPERTY)) {
            return 0;
        }
        ClassLoader loader = ClassPreload.class.getClassLoader();
        int loaded = 0;
        try (InputStream in = loader.getResourceAsStream(resource(function))) {
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
